import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { checkDatabaseUrl, SUPPORTED_DATABASE_URL_PARAMETERS } from "./database-url";
import { adminQuery } from "./pg-admin";
import { createTestDatabase } from "./test-database";

const base = "postgresql://probebook:secret@db.example:5432/probebook";

describe("checkDatabaseUrl", () => {
  it("accepts a plain URL and the parameters node-postgres honours", () => {
    const cert = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "probebook-url-")), "ca.pem");
    fs.writeFileSync(cert, "-----BEGIN CERTIFICATE-----\n");
    for (const url of [
      base,
      "postgres://probebook@db.example/probebook",
      `${base}?sslmode=verify-full&sslrootcert=${encodeURIComponent(cert)}`,
      `${base}?sslmode=require&uselibpqcompat=true`,
      `${base}?ssl=no-verify`,
      `${base}?application_name=probebook-1&statement_timeout=60000&lock_timeout=5000&idle_in_transaction_session_timeout=60000&query_timeout=120000`,
      `${base}?options=-c%20work_mem%3D8MB`,
      "postgresql://probebook@/probebook?host=/var/run/postgresql",
      "postgresql://probebook@%2Fvar%2Frun%2Fpostgresql/probebook",
    ]) {
      expect(() => checkDatabaseUrl(url), url).not.toThrow();
    }
  });

  it("refuses ?schema= naming the parameter, why, and what is supported", () => {
    expect(() => checkDatabaseUrl(`${base}?schema=probebook`)).toThrow(
      /^DATABASE_URL: the parameter "schema" is not supported: Probebook uses the database's default search path .*a database of its own.*Supported parameters: host, port, user, password, sslmode/,
    );
    expect(() => checkDatabaseUrl(`${base}?options=-c%20search_path%3Dprobebook`)).toThrow(/"options" must not set search_path/);
  });

  it("refuses parameters node-postgres ignores, with the reason", () => {
    expect(() => checkDatabaseUrl(`${base}?connect_timeout=10`)).toThrow(/"connect_timeout" is not supported: node-postgres ignores it/);
    expect(() => checkDatabaseUrl(`${base}?connection_limit=5`)).toThrow(/"connection_limit" .*PROBEBOOK_DB_POOL/);
    expect(() => checkDatabaseUrl(`${base}?sslmode=disable&frobnicate=1`)).toThrow(/the parameter "frobnicate" is not supported: .*does not act on it/);
  });

  it("refuses bad values, a missing database and other schemes, never echoing the password", () => {
    expect(() => checkDatabaseUrl(`${base}?sslmode=sometimes`)).toThrow(/"sslmode" must be one of disable, prefer, require, verify-ca, verify-full, no-verify, not "sometimes"/);
    expect(() => checkDatabaseUrl(`${base}?ssl=false`)).toThrow(/"ssl" must be one of true, 1, 0, no-verify/);
    expect(() => checkDatabaseUrl(`${base}?statement_timeout=1min`)).toThrow(/whole number of milliseconds/);
    expect(() => checkDatabaseUrl(`${base}?sslrootcert=/nonexistent/ca.pem`)).toThrow(/"sslrootcert" the file "\/nonexistent\/ca.pem" cannot be read/);
    expect(() => checkDatabaseUrl(`${base}?port=99999`)).toThrow(/"port" must be a port number/);
    expect(() => checkDatabaseUrl("mysql://u:p@h/db")).toThrow(/must start with postgresql:\/\//);
    expect(() => checkDatabaseUrl("not a url", "TEST_DATABASE_URL")).toThrow(/^TEST_DATABASE_URL is not a URL/);
    let message = "";
    try {
      checkDatabaseUrl("postgresql://probebook:hunter2@db.example:5432/");
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/names no database/);
    expect(message).not.toContain("hunter2");
  });

  it("lists only parameters that take effect on a real connection", async () => {
    expect(SUPPORTED_DATABASE_URL_PARAMETERS).not.toContain("schema");
    const db = await createTestDatabase("urlparams");
    try {
      const url = new URL(db.url);
      url.searchParams.set("application_name", "probebook-check");
      url.searchParams.set("statement_timeout", "61000");
      url.searchParams.set("options", "-c work_mem=9MB");
      url.searchParams.set("sslmode", "disable");
      checkDatabaseUrl(url.href);
      const r = await adminQuery(url.href, "SELECT current_setting('application_name') AS a, current_setting('statement_timeout') AS s, current_setting('work_mem') AS w");
      expect(r.rows[0]).toEqual({ a: "probebook-check", s: "61s", w: "9MB" });
    } finally {
      await db.dispose();
    }
  }, 120_000);
});
