import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "../../db";
import { AppError } from "../../http/app-error";
import { connectTestDatabase } from "../../testing/db";
import { createUser } from "../users/create-user";
import { createHost, hostLimits, reissueRegistration } from "./create-host";

connectTestDatabase();

describe("per-user host limits", () => {
  it("a burst of concurrent host creations stops at the pending-token limit with a 429 that says why", async () => {
    const user = await createUser({ email: `burst-${crypto.randomUUID().slice(0, 8)}@example.com`, password: "long-enough-1", role: "OPERATOR" });
    const { pending } = hostLimits();
    const results = await Promise.allSettled(Array.from({ length: 40 }, (_, i) => createHost({ name: `burst ${i}`, createdById: user.id })));
    const ok = results.filter((r) => r.status === "fulfilled");
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(ok).toHaveLength(pending);
    expect(refused).toHaveLength(40 - pending);
    for (const r of refused) {
      expect(r.reason).toBeInstanceOf(AppError);
      expect((r.reason as AppError).status).toBe(429);
      expect((r.reason as AppError).message).toMatch(/registration tokens not used yet/);
    }
    expect(await db().host.count({ where: { createdById: user.id } })).toBe(pending);
    // Reissuing a token while at the limit is refused as well.
    const first = ok[0] as PromiseFulfilledResult<{ id: string }>;
    await expect(reissueRegistration({ hostId: first.value.id, actor: { userId: user.id, email: user.email, role: "OPERATOR", via: "session" } })).rejects.toThrow(/registration tokens not used yet/);
    // A used token frees a slot.
    await db().host.update({ where: { id: first.value.id }, data: { registrationTokenHash: null, registrationExpiresAt: null } });
    const after = await createHost({ name: "after", createdById: user.id });
    expect(after.name).toBe("after");
    expect(after.registrationExpiresAt).toBeInstanceOf(Date);
    expect(Math.abs(after.registrationExpiresAt!.getTime() - Date.now() - 24 * 3600_000)).toBeLessThan(60_000);
  });
});
