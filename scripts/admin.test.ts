import { spawn } from "node:child_process";
import crypto from "node:crypto";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { verifyPassword } from "../lib/auth/password";
import { db } from "../lib/db";
import { connectTestDatabase } from "../lib/testing/db";

const databaseUrl = connectTestDatabase();
const root = path.resolve(__dirname, "..");

/** `npm run admin -- …` as a process, stdin piped (not a terminal), against the test database. */
function admin(args: string[], stdin: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(root, "node_modules", "tsx", "dist", "cli.mjs"), "scripts/admin.ts", ...args], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: databaseUrl },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

const email = (tag: string) => `admin-${tag}-${crypto.randomUUID().slice(0, 8)}@example.test`;
const hashOf = async (e: string) => (await db().user.findUniqueOrThrow({ where: { email: e } })).passwordHash;

describe("npm run admin -- user create and user password", () => {
  it("reads the password from stdin with --password-stdin, so it is on no command line", async () => {
    const e = email("stdin");
    const r = await admin(["user", "create", "--email", e, "--role", "viewer", "--password-stdin"], "correct horse battery\nsecond line is ignored\n");
    expect(r.stderr).toBe("");
    expect(r).toMatchObject({ code: 0, stdout: expect.stringContaining(`created viewer ${e}`) });
    expect(await verifyPassword(await hashOf(e), "correct horse battery")).toBe(true);

    const p = await admin(["user", "password", "--email", e, "--password-stdin"], "another long secret\n");
    expect(p.code).toBe(0);
    expect(await verifyPassword(await hashOf(e), "another long secret")).toBe(true);
  }, 120_000);

  it("still takes --password, with a warning on stderr", async () => {
    const e = email("flag");
    const r = await admin(["user", "create", "--email", e, "--role", "viewer", "--password", "flag password long"], "");
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/warning: --password shows the password .* use --password-stdin/);
    expect(await verifyPassword(await hashOf(e), "flag password long")).toBe(true);
  }, 120_000);

  it("refuses, creating nothing, when no password can be read (no flag, stdin not a terminal)", async () => {
    const e = email("none");
    const r = await admin(["user", "create", "--email", e, "--role", "viewer"], "");
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/missing password: pipe it with --password-stdin/);
    expect(await db().user.count({ where: { email: e } })).toBe(0);
    const empty = await admin(["user", "create", "--email", e, "--role", "viewer", "--password-stdin"], "");
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/stdin had no password/);
  }, 120_000);
});
