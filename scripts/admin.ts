// `npm run admin -- <command>`: user and token administration from the shell.
import { parseArgs } from "node:util";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@prisma/client";
import { roleFromName, ROLE_NAMES } from "../lib/auth/roles";
import { AppError } from "../lib/http/app-error";
import { openDatabase } from "../lib/runtime/open-database";
import { migrateDeploy } from "../lib/runtime/prisma-cli";
import { createUser } from "../lib/server/users/create-user";
import { createApiToken } from "../lib/server/tokens/create-api-token";

const USAGE = `usage:
  npm run admin -- user create --email E --password P --role admin|operator|viewer
  npm run admin -- user list
  npm run admin -- token create --email E --name N     (prints the token once)
  npm run admin -- token list --email E
  npm run admin -- token revoke --id TOKEN_ID`;

class UsageError extends Error {}

function need(values: Record<string, string | boolean | undefined>, key: string): string {
  const v = values[key];
  if (typeof v !== "string" || !v) throw new UsageError(`missing --${key}`);
  return v;
}

async function run(client: PrismaClient, argv: string[]): Promise<void> {
  const [noun, verb, ...rest] = argv;
  const { values } = parseArgs({
    args: rest,
    options: { email: { type: "string" }, password: { type: "string" }, role: { type: "string" }, name: { type: "string" }, id: { type: "string" } },
    strict: true,
  });
  if (noun === "user" && verb === "create") {
    const roleName = need(values, "role");
    const role = roleFromName(roleName);
    if (!role) throw new UsageError(`unknown role "${roleName}": use one of ${ROLE_NAMES.join(", ")}`);
    const user = await createUser({ email: need(values, "email"), password: need(values, "password"), role }, client);
    console.log(`created ${user.role.toLowerCase()} ${user.email} (${user.id})`);
  } else if (noun === "user" && verb === "list") {
    const users = await client.user.findMany({ orderBy: { createdAt: "asc" }, select: { email: true, role: true, createdAt: true } });
    for (const u of users) console.log(`${u.email}\t${u.role.toLowerCase()}\t${u.createdAt.toISOString()}`);
  } else if (noun === "token" && verb === "create") {
    const t = await createApiToken({ email: need(values, "email"), name: need(values, "name") }, client);
    // The token alone on stdout, so `$(npm run --silent admin -- token create ...)` captures it.
    console.log(t.token);
    console.error(`token "${t.name}" (${t.id}) created; it is shown only this once`);
  } else if (noun === "token" && verb === "list") {
    const email = need(values, "email").toLowerCase();
    const tokens = await client.apiToken.findMany({ where: { user: { email } }, orderBy: { createdAt: "asc" } });
    for (const t of tokens) {
      console.log(`${t.id}\t${t.name}\t${t.prefix}…\t${t.revokedAt ? "revoked" : "active"}\tlast used ${t.lastUsedAt?.toISOString() ?? "never"}`);
    }
  } else if (noun === "token" && verb === "revoke") {
    const id = need(values, "id");
    const r = await client.apiToken.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: new Date() } });
    if (r.count === 0) throw new AppError("NOT_FOUND", `no active token with id ${id}`);
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
