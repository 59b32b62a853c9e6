import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "../../db";
import { connectTestDatabase } from "../../testing/db";
import { pruneSessions } from "../sessions/prune-sessions";
import { createUser } from "../users/create-user";
import { auditRetentionDays, DEFAULT_AUDIT_RETENTION_DAYS, pruneAudit } from "./prune-audit";

connectTestDatabase();

const DAY = 86_400_000;

// Issue 27, "Also": old audit rows and dead sessions were never deleted.
describe("retention", () => {
  it("deletes audit rows older than the retention and keeps the rest", async () => {
    const now = new Date("2026-11-27T12:00:00Z");
    const tag = crypto.randomUUID().slice(0, 8);
    const ages = { ancient: 400, justOver: 181, justUnder: 179, fresh: 0 } as const;
    for (const [name, days] of Object.entries(ages)) {
      await db().auditEvent.create({ data: { action: "run.launch", targetType: "test", targetId: `${tag}-${name}`, at: new Date(now.getTime() - days * DAY) } });
    }
    expect(await pruneAudit({ now })).toBeGreaterThanOrEqual(2);
    const left = await db().auditEvent.findMany({ where: { targetType: "test", targetId: { startsWith: tag } }, select: { targetId: true } });
    expect(left.map((r) => r.targetId).sort()).toEqual([`${tag}-fresh`, `${tag}-justUnder`]);
    // A shorter retention takes more; running again takes nothing more.
    await pruneAudit({ now, retentionDays: 30 });
    expect(await db().auditEvent.count({ where: { targetType: "test", targetId: { startsWith: tag } } })).toBe(1);
    expect(await pruneAudit({ now, retentionDays: 30 })).toBe(0);
  });

  it("AUDIT_RETENTION_DAYS: default 180, whole days only, a clear error otherwise", () => {
    expect(auditRetentionDays(undefined)).toBe(DEFAULT_AUDIT_RETENTION_DAYS);
    expect(auditRetentionDays("")).toBe(180);
    expect(auditRetentionDays(" 365 ")).toBe(365);
    for (const bad of ["0", "-5", "1.5", "1e3", "forever", "36501"]) expect(() => auditRetentionDays(bad), bad).toThrow(/AUDIT_RETENTION_DAYS "[^"]*" is not a number of days/);
  });

  it("deletes expired and revoked sessions and keeps live ones", async () => {
    const user = await createUser({ email: `prune-${crypto.randomUUID().slice(0, 8)}@example.test`, password: "long enough 1", role: "VIEWER" });
    const now = new Date();
    const make = (expiresAt: Date, revokedAt: Date | null = null) => db().session.create({ data: { userId: user.id, expiresAt, revokedAt } });
    const live = await make(new Date(now.getTime() + DAY));
    const expired = await make(new Date(now.getTime() - 1000));
    const longExpired = await make(new Date(now.getTime() - 90 * DAY));
    const revoked = await make(new Date(now.getTime() + DAY), new Date(now.getTime() - 1000));
    expect(await pruneSessions({ now })).toBeGreaterThanOrEqual(3);
    const left = await db().session.findMany({ where: { userId: user.id }, select: { id: true } });
    expect(left.map((s) => s.id)).toEqual([live.id]);
    expect([expired.id, longExpired.id, revoked.id]).not.toContain(left[0]?.id);
  });
});
