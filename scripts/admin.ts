// `npm run admin -- <command>`: user and token administration from the shell.
import { parseArgs } from "node:util";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@prisma/client";
import { roleFromName, ROLE_NAMES } from "../lib/auth/roles";
import { AppError } from "../lib/http/app-error";
import { openDatabase } from "../lib/runtime/open-database";
import { migrateDeploy } from "../lib/runtime/prisma-cli";
import { createUser } from "../lib/server/users/create-user";
import { hashPassword } from "../lib/auth/password";
import { promptHidden, readStdinLine } from "../cli/prompt";
import { revokeUserSessions } from "../lib/auth/session-store";
import { recordAudit, type AuditAction } from "../lib/server/audit/record-audit";
import { createApiToken } from "../lib/server/tokens/create-api-token";
import { newUserSchema } from "../lib/server/users/create-user";
import { setUserDisabled } from "../lib/server/users/set-user-disabled";

const USAGE = `usage:
  npm run admin -- user create --email E --role admin|operator|viewer [--password-stdin]
      (the password: asked for at a terminal without echo, or the first line of stdin with
      --password-stdin; --password P still works but shows it in npm's echo and the process list)
  npm run admin -- user list
  npm run admin -- user disable|enable --email E       (disabling ends their sessions)
  npm run admin -- user password --email E [--password-stdin]  (ends their sessions)
  npm run admin -- user sign-out --email E             (ends every session of the user)
  npm run admin -- token create --email E --name N [--expires-days D]   (prints the token once)
  npm run admin -- token list --email E
  npm run admin -- token revoke --id TOKEN_ID`;

class UsageError extends Error {}

function need(values: Record<string, string | boolean | undefined>, key: string): string {
  const v = values[key];
  if (typeof v !== "string" || !v) throw new UsageError(`missing --${key}`);
  return v;
}

/** The audit log records shell administration too; the actor is the operating-system user. */
async function auditCli(client: PrismaClient, action: AuditAction, target: { type: string; id: string }, details: Record<string, unknown> = {}) {
  await recordAudit({ actor: null, action, target, ip: "cli", details: { ...details, via: "admin-cli", osUser: process.env.USER ?? null } }, client);
}

/**
 * The password from stdin (--password-stdin), a prompt without echo at a terminal, or, with a
 * warning, --password: npm prints the command line it runs, so a flag's value lands in the
 * terminal's scrollback and CI logs, and any local user sees it in the process list meanwhile.
 */
async function passwordOf(values: Record<string, string | boolean | undefined>, email: string): Promise<string> {
  if (values["password-stdin"] && values.password !== undefined) throw new UsageError("give --password-stdin or --password, not both");
  if (values["password-stdin"]) {
    const line = await readStdinLine();
    if (!line) throw new UsageError("--password-stdin: stdin had no password (one line is read)");
    return line;
  }
  if (typeof values.password === "string") {
    process.stderr.write("admin: warning: --password shows the password in npm's echo of the command and in the process list; use --password-stdin or let the command ask for it.\n");
    return need(values, "password");
  }
  if (!process.stdin.isTTY) throw new UsageError("missing password: pipe it with --password-stdin, or run the command at a terminal to be asked for it");
  const first = await promptHidden(`Password for ${email} (not shown): `);
  if (first === null) throw new UsageError("no password given");
  const again = await promptHidden("The same password again: ");
  if (again !== first) throw new UsageError("the two passwords differ; nothing was changed");
  return first;
}

async function userByEmail(client: PrismaClient, email: string) {
  const user = await client.user.findUnique({ where: { email: email.trim().toLowerCase() }, select: { id: true, email: true } });
  if (!user) throw new AppError("NOT_FOUND", `no user ${email}`);
  return user;
}

async function run(client: PrismaClient, argv: string[]): Promise<void> {
  const [noun, verb, ...rest] = argv;
  const { values } = parseArgs({
    args: rest,
    options: { email: { type: "string" }, password: { type: "string" }, "password-stdin": { type: "boolean" }, role: { type: "string" }, name: { type: "string" }, id: { type: "string" }, "expires-days": { type: "string" } },
    strict: true,
  });
  if (noun === "user" && verb === "create") {
    const roleName = need(values, "role");
    const role = roleFromName(roleName);
    if (!role) throw new UsageError(`unknown role "${roleName}": use one of ${ROLE_NAMES.join(", ")}`);
    const email = need(values, "email");
    const user = await createUser({ email, password: await passwordOf(values, email), role }, client);
    await auditCli(client, "user.create", { type: "user", id: user.id }, { email: user.email, role: user.role });
    console.log(`created ${user.role.toLowerCase()} ${user.email} (${user.id})`);
  } else if (noun === "user" && verb === "list") {
    const users = await client.user.findMany({ orderBy: { createdAt: "asc" }, select: { email: true, role: true, createdAt: true, disabledAt: true } });
    for (const u of users) console.log(`${u.email}\t${u.role.toLowerCase()}\t${u.createdAt.toISOString()}${u.disabledAt ? "\tdisabled" : ""}`);
  } else if (noun === "user" && (verb === "disable" || verb === "enable")) {
    const user = await userByEmail(client, need(values, "email"));
    await setUserDisabled({ client, userId: user.id, disabled: verb === "disable" });
    await auditCli(client, verb === "disable" ? "user.disable" : "user.enable", { type: "user", id: user.id });
    console.log(`${verb}d ${user.email}`);
  } else if (noun === "user" && verb === "password") {
    const user = await userByEmail(client, need(values, "email"));
    const password = newUserSchema.shape.password.safeParse(await passwordOf(values, user.email));
    if (!password.success) throw new UsageError(password.error.issues.map((i) => i.message).join(" "));
    await client.user.update({ where: { id: user.id }, data: { passwordHash: await hashPassword(password.data) } });
    const ended = await revokeUserSessions(user.id, {}, client);
    await auditCli(client, "user.password", { type: "user", id: user.id }, { sessionsEnded: ended });
    console.log(`password of ${user.email} changed; ${ended} session(s) ended`);
  } else if (noun === "user" && verb === "sign-out") {
    const user = await userByEmail(client, need(values, "email"));
    const ended = await revokeUserSessions(user.id, {}, client);
    await auditCli(client, "sessions.revoke", { type: "user", id: user.id }, { count: ended });
    console.log(`${ended} session(s) of ${user.email} ended`);
  } else if (noun === "token" && verb === "create") {
    const days = values["expires-days"];
    if (days !== undefined && !/^\d+$/.test(days)) throw new UsageError(`--expires-days wants a whole number of days, not "${days}"`);
    const t = await createApiToken({ email: need(values, "email"), name: need(values, "name"), expiresInDays: days === undefined ? undefined : Number(days) }, client);
    await auditCli(client, "token.create", { type: "api-token", id: t.id }, { name: t.name, expiresAt: t.expiresAt?.toISOString() ?? null });
    // The token alone on stdout, so `$(npm run --silent admin -- token create ...)` captures it.
    console.log(t.token);
    console.error(`token "${t.name}" (${t.id}) created; it is shown only this once`);
  } else if (noun === "token" && verb === "list") {
    const email = need(values, "email").toLowerCase();
    const tokens = await client.apiToken.findMany({ where: { user: { email } }, orderBy: { createdAt: "asc" } });
    for (const t of tokens) {
      const state = t.revokedAt ? "revoked" : t.expiresAt && t.expiresAt <= new Date() ? "expired" : "active";
      console.log(`${t.id}\t${t.name}\t${t.prefix}…\t${state}\texpires ${t.expiresAt?.toISOString() ?? "never"}\tlast used ${t.lastUsedAt?.toISOString() ?? "never"}`);
    }
  } else if (noun === "token" && verb === "revoke") {
    const id = need(values, "id");
    const r = await client.apiToken.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: new Date() } });
    if (r.count === 0) throw new AppError("NOT_FOUND", `no active token with id ${id}`);
    await auditCli(client, "token.revoke", { type: "api-token", id });
    console.log(`revoked ${id}`);
  } else {
    throw new UsageError(noun ? `unknown command "${[noun, verb].filter(Boolean).join(" ")}"` : "no command given");
  }
}

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  if (argv.length === 0 || argv[0] === "--help" || argv[0] === "help") {
    console.log(USAGE);
    return argv.length === 0 ? 2 : 0;
  }
  const database = await openDatabase();
  try {
    // A database this process had to start itself may never have been migrated.
    if (database.embedded) await migrateDeploy(database.url);
    const client = new PrismaClient({ adapter: new PrismaPg({ connectionString: database.url }) });
    try {
      await run(client, argv);
      return 0;
    } finally {
      await client.$disconnect();
    }
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    // parseArgs rejects unknown flags with a TypeError whose message is already readable.
    if (err instanceof UsageError) console.error(`admin: ${err.message}\n${USAGE}`);
    else console.error(`admin: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(err instanceof UsageError ? 2 : 1);
  },
);
