import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "../db";
import { createApiToken } from "../server/tokens/create-api-token";
import { connectTestDatabase } from "../testing/db";
import { actorFromBearer } from "./actor";

connectTestDatabase();

describe("API tokens", () => {
  it("an expired token, a revoked one and one of a disabled user speak for nobody", async () => {
    const user = await db().user.create({ data: { email: `t-${crypto.randomUUID().slice(0, 8)}@example.com`, passwordHash: "x", role: "OPERATOR" } });
    const forever = await createApiToken({ userId: user.id, name: "forever" });
    const short = await createApiToken({ userId: user.id, name: "short", expiresInDays: 1 });
    expect(short.expiresAt!.getTime()).toBeGreaterThan(Date.now() + 23 * 3600_000);
    expect((await actorFromBearer(forever.token))?.userId).toBe(user.id);
    expect((await actorFromBearer(short.token))?.userId).toBe(user.id);
    await db().apiToken.update({ where: { id: short.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await actorFromBearer(short.token)).toBeNull();
    await db().user.update({ where: { id: user.id }, data: { disabledAt: new Date() } });
    expect(await actorFromBearer(forever.token)).toBeNull();
    await db().user.update({ where: { id: user.id }, data: { disabledAt: null } });
    expect((await actorFromBearer(forever.token))?.userId).toBe(user.id);
    await db().apiToken.update({ where: { id: forever.id }, data: { revokedAt: new Date() } });
    expect(await actorFromBearer(forever.token)).toBeNull();
  });

  it("expiry must be a sensible number of days", async () => {
    const user = await db().user.create({ data: { email: `t-${crypto.randomUUID().slice(0, 8)}@example.com`, passwordHash: "x", role: "VIEWER" } });
    await expect(createApiToken({ userId: user.id, name: "x", expiresInDays: 0 })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(createApiToken({ userId: user.id, name: "x", expiresInDays: 1.5 })).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });
});
