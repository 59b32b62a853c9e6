// Two instances on one database must accept each other's session cookies without SESSION_SECRET.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sealData, unsealData } from "iron-session";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "./test-database";
import { adminQuery } from "./pg-admin";
import { ensureSessionSecret, legacySessionSecretFile } from "./session-secret";

let db: TestDatabase;
const dirs: string[] = [];
const savedEnv = process.env.SESSION_SECRET;

function instanceDir(legacySecret?: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "probebook-secret-"));
  dirs.push(dir);
  if (legacySecret) fs.writeFileSync(legacySessionSecretFile(dir), legacySecret, { mode: 0o600 });
  return dir;
}

beforeAll(async () => {
  delete process.env.SESSION_SECRET;
  db = await createTestDatabase("secret");
}, 120_000);

afterEach(async () => {
  delete process.env.SESSION_SECRET;
  await adminQuery(db.url, "DELETE FROM instance_secrets");
});

afterAll(async () => {
  if (savedEnv !== undefined) process.env.SESSION_SECRET = savedEnv;
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  await db?.dispose();
});

describe("ensureSessionSecret", () => {
  it("gives two instances starting at once on one database the same key, and each opens the other's cookie", async () => {
    const [a, b] = await Promise.all([ensureSessionSecret(db.url, { dir: instanceDir() }), ensureSessionSecret(db.url, { dir: instanceDir() })]);
    expect(a.length).toBeGreaterThanOrEqual(32);
    expect(b).toBe(a);
    const rows = await adminQuery(db.url, "SELECT name FROM instance_secrets");
    expect(rows.rows).toEqual([{ name: "session" }]);
    // What iron-session puts in the cookie, sealed by one instance and opened by the other.
    const cookie = await sealData({ sid: "0b6c1c1e-5d2e-4d8e-9a57-1c1f5f0e8a11" }, { password: a, ttl: 3600 });
    expect(await unsealData<{ sid?: string }>(cookie, { password: b, ttl: 3600 })).toEqual({ sid: "0b6c1c1e-5d2e-4d8e-9a57-1c1f5f0e8a11" });
    // A restart reads the same key back.
    expect(await ensureSessionSecret(db.url, { dir: instanceDir() })).toBe(a);
  });

  it("moves an older release's data-dir key into the database, so its cookies stay valid on every instance", async () => {
    const old = "an-older-release-kept-this-in-the-data-dir-0123456789";
    const logs: string[] = [];
    const upgraded = await ensureSessionSecret(db.url, { dir: instanceDir(old), log: (l) => logs.push(l) });
    expect(upgraded).toBe(old);
    expect(logs.join("\n")).toMatch(/moved the session secret from the data dir into the database/);
    const cookie = await sealData({ sid: "s1" }, { password: old, ttl: 3600 });
    const other = await ensureSessionSecret(db.url, { dir: instanceDir() });
    expect(await unsealData<{ sid?: string }>(cookie, { password: other, ttl: 3600 })).toEqual({ sid: "s1" });
  });

  it("keeps the database's key when a data dir holds a different one, and says so", async () => {
    const first = await ensureSessionSecret(db.url, { dir: instanceDir() });
    const logs: string[] = [];
    const second = await ensureSessionSecret(db.url, { dir: instanceDir("a-different-key-from-another-data-dir-0123456789"), log: (l) => logs.push(l) });
    expect(second).toBe(first);
    expect(logs.join("\n")).toMatch(/differs from the one in the database/);
  });

  it("uses SESSION_SECRET when set, storing nothing, and refuses a short one naming the variable", async () => {
    process.env.SESSION_SECRET = "x".repeat(40);
    expect(await ensureSessionSecret(db.url, { dir: instanceDir() })).toBe("x".repeat(40));
    expect((await adminQuery(db.url, "SELECT 1 FROM instance_secrets")).rowCount).toBe(0);
    process.env.SESSION_SECRET = "short";
    await expect(ensureSessionSecret(db.url, { dir: instanceDir() })).rejects.toThrow(/SESSION_SECRET must be at least 32 characters long \(it has 5\)/);
  });
});
