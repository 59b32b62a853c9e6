import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { connectTestDatabase } from "../../testing/db";
import { listAudit, parseAuditQuery } from "./list-audit";
import { recordAudit } from "./record-audit";

connectTestDatabase();

describe("audit log", () => {
  it("records who, what, where and filters by action, actor, target, address and day", async () => {
    const tag = crypto.randomUUID().slice(0, 8);
    const actor = { userId: crypto.randomUUID(), email: `auditor-${tag}@example.com` };
    await recordAudit({ actor, action: "run.launch", target: { type: "run", id: `r-${tag}` }, ip: "192.0.2.1", details: { probe: "dd" } });
    await recordAudit({ actor, action: "token.revoke", target: { type: "api-token", id: `t-${tag}` }, ip: "192.0.2.2" });
    const mine = await listAudit(parseAuditQuery(new URLSearchParams({ actor: `auditor-${tag}` })));
    expect(mine.map((r) => r.action)).toEqual(["token.revoke", "run.launch"]);
    expect(mine[1]).toMatchObject({ actorEmail: actor.email, targetType: "run", targetId: `r-${tag}`, ip: "192.0.2.1", details: { probe: "dd" } });
    expect(await listAudit(parseAuditQuery(new URLSearchParams({ actor: tag, action: "run.launch" })))).toHaveLength(1);
    expect(await listAudit(parseAuditQuery(new URLSearchParams({ target: `t-${tag}` })))).toHaveLength(1);
    const today = new Date().toISOString().slice(0, 10);
    expect(await listAudit(parseAuditQuery(new URLSearchParams({ actor: tag, from: today, to: today })))).toHaveLength(2);
    expect(await listAudit(parseAuditQuery(new URLSearchParams({ actor: tag, to: "2020-01-01" })))).toHaveLength(0);
  });

  it("bad filters are a 400 that names them, not a 500", () => {
    const bads: Record<string, string>[] = [{ action: "drop table" }, { from: "2026-13-45" }, { to: "-271821-04-20" }, { limit: "1e9" }];
    for (const bad of bads) {
      expect(() => parseAuditQuery(new URLSearchParams(bad)), JSON.stringify(bad)).toThrow(expect.objectContaining({ status: 400 }));
    }
  });

  // Issue 27 item 14: NUL in a text filter reached PostgreSQL ("invalid byte sequence 0x00").
  it("a NUL in actor, target or ip is a 400 naming the filter (the page parses the same way)", () => {
    for (const name of ["actor", "target", "ip"]) {
      expect(() => parseAuditQuery(new URLSearchParams({ [name]: "a\u0000b" })), name).toThrow(expect.objectContaining({ status: 400, message: expect.stringContaining(name) }));
      expect(() => parseAuditQuery({ [name]: "\u0000" }), name).toThrow(expect.objectContaining({ status: 400 }));
    }
  });

  it("days at the ends of the calendar filter without a database error", async () => {
    // to=9999-12-31 used to become "before 10000-01-01", a date PostgreSQL is never sent right.
    for (const q of [{ to: "9999-12-31" }, { from: "9999-12-31" }, { from: "0001-01-01", to: "0001-01-01" }] as Record<string, string>[]) {
      await expect(listAudit(parseAuditQuery(new URLSearchParams({ ...q, limit: "1" }))), JSON.stringify(q)).resolves.toBeInstanceOf(Array);
    }
  });
});
