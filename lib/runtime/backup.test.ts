import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { backupFileKind, libpqEnv } from "./backup";

describe("libpqEnv", () => {
  it("hands pg_dump the connection through libpq's variables, password included, never node-postgres-only parameters", () => {
    process.env.PGSERVICE = "left-over-from-the-shell";
    const env = libpqEnv("postgresql://probebook:s%40cret@db.example:6543/probebook?sslmode=no-verify&application_name=pb&query_timeout=5000&options=-c%20work_mem%3D8MB");
    delete process.env.PGSERVICE;
    expect(env).toMatchObject({ PGHOST: "db.example", PGPORT: "6543", PGUSER: "probebook", PGPASSWORD: "s@cret", PGDATABASE: "probebook", PGSSLMODE: "require", PGAPPNAME: "pb", PGOPTIONS: "-c work_mem=8MB" });
    expect(env.PGSERVICE).toBeUndefined();
    expect(Object.keys(env).filter((k) => k.startsWith("PG")).sort()).toEqual(["PGAPPNAME", "PGDATABASE", "PGHOST", "PGOPTIONS", "PGPASSWORD", "PGPORT", "PGSSLMODE", "PGUSER"]);
  });

  it("reads a socket directory and refuses what the app would refuse", () => {
    expect(libpqEnv("postgresql://probebook@/probebook?host=/var/run/postgresql")).toMatchObject({ PGHOST: "/var/run/postgresql", PGDATABASE: "probebook" });
    expect(() => libpqEnv("postgresql://probebook@db/probebook?schema=x")).toThrow(/"schema" is not supported/);
  });
});

describe("backupFileKind", () => {
  it("tells a pg_dump archive from an embedded backup, and names anything else", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "probebook-kind-"));
    try {
      fs.writeFileSync(path.join(dir, "a.dump"), "PGDMP\x01\x0e");
      fs.writeFileSync(path.join(dir, "b.tar.gz"), Buffer.from([0x1f, 0x8b, 0x08, 0, 0]));
      fs.writeFileSync(path.join(dir, "c.sql"), "-- plain SQL");
      expect(backupFileKind(path.join(dir, "a.dump"))).toBe("server");
      expect(backupFileKind(path.join(dir, "b.tar.gz"))).toBe("embedded");
      expect(() => backupFileKind(path.join(dir, "c.sql"))).toThrow(/c\.sql is neither a pg_dump archive .* nor an embedded-database backup/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
