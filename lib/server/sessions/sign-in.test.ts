import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { readSession, revokeSession, revokeUserSessions } from "../../auth/session-store";
import { db } from "../../db";
import { backoffSeconds, POLICIES } from "../../http/auth-throttle";
import { clientAddress, parseCidrList, PEER_HEADER, peerHeaderValue } from "../../http/client-address";
import { connectTestDatabase } from "../../testing/db";
import { createUser } from "../users/create-user";
import { attemptSignIn } from "./sign-in";

connectTestDatabase();

async function newUser() {
  const email = `owner-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const password = "right-password-1";
  const user = await createUser({ email, password, role: "ADMIN" });
  return { ...user, password };
}

const at = (base: Date, seconds: number) => new Date(base.getTime() + seconds * 1000);

describe("sign-in backoff (PostgreSQL)", () => {
  it("an attacker hammering an account cannot keep its owner out for more than the account cap", async () => {
    const owner = await newUser();
    const t0 = new Date();
    let t = t0;
    // 200 wrong guesses from one address, each made as soon as the previous block allows.
    let refused = 0;
    for (let i = 0; i < 200; i++) {
      const r = await attemptSignIn({ email: owner.email, password: `guess-${i}`, ip: "203.0.113.66" }, t);
      expect(r.ok).toBe(false);
      if (!r.ok && /try again/.test(r.message)) refused++;
      t = at(t, 1);
    }
    // The guesser's own bucket grew to long blocks: most of those attempts never reached the password check.
    expect(refused).toBeGreaterThan(150);
    // The owner, from their own address, with the right password: at most the account-wide cap later.
    const now = at(t, POLICIES.signInAccount.capSeconds);
    const ok = await attemptSignIn({ email: owner.email, password: owner.password, ip: "198.51.100.10" }, now);
    expect(ok.ok).toBe(true);
  });

  it("a distributed guesser (one guess per address) is slowed account-wide, and the owner still gets in", async () => {
    const owner = await newUser();
    let t = new Date();
    for (let i = 0; i < 40; i++) {
      await attemptSignIn({ email: owner.email, password: "wrong", ip: `10.0.${i}.1` }, t);
      t = at(t, 0.1);
    }
    const blocked = await attemptSignIn({ email: owner.email, password: "wrong", ip: "10.9.9.9" }, t);
    expect(blocked.ok).toBe(false);
    expect(!blocked.ok && blocked.message).toMatch(/try again in \d+ s/);
    const ok = await attemptSignIn({ email: owner.email, password: owner.password, ip: "198.51.100.11" }, at(t, POLICIES.signInAccount.capSeconds + 1));
    expect(ok.ok).toBe(true);
  });

  it("spraying many accounts from one address is blocked even with X-Forwarded-For rotated (keys use the real address)", async () => {
    let t = new Date();
    let refused = 0;
    for (let i = 0; i < 120; i++) {
      const r = await attemptSignIn({ email: `nobody-${i}-${crypto.randomUUID().slice(0, 6)}@example.com`, password: "x", ip: "192.0.2.77" }, t);
      if (!r.ok && /try again/.test(r.message)) refused++;
      t = at(t, 0.5);
    }
    // 50 free failures per address, then waits that double: most of the rest are refused unchecked.
    expect(refused).toBeGreaterThan(50);
  });

  it("backoff doubles after the free attempts and is capped", () => {
    expect(backoffSeconds("signInAccountClient", 3)).toBe(0);
    expect(backoffSeconds("signInAccountClient", 4)).toBe(1);
    expect(backoffSeconds("signInAccountClient", 6)).toBe(4);
    expect(backoffSeconds("signInAccountClient", 1000)).toBe(POLICIES.signInAccountClient.capSeconds);
  });
});

describe("server-side sessions", () => {
  it("a session stops working once revoked, when the user is disabled, and on sign out everywhere", async () => {
    const owner = await newUser();
    const a = await attemptSignIn({ email: owner.email, password: owner.password, ip: "198.51.100.20" });
    const b = await attemptSignIn({ email: owner.email, password: owner.password, ip: "198.51.100.21" });
    if (!a.ok || !b.ok) throw new Error("sign-in failed");
    expect((await readSession(a.sessionId))?.email).toBe(owner.email);
    expect(await revokeSession(a.sessionId)).toBe(true);
    expect(await readSession(a.sessionId)).toBeNull();
    expect(await readSession(b.sessionId)).not.toBeNull();
    await db().user.update({ where: { id: owner.id }, data: { disabledAt: new Date() } });
    expect(await readSession(b.sessionId)).toBeNull();
    const again = await attemptSignIn({ email: owner.email, password: owner.password, ip: "198.51.100.22" });
    expect(again.ok).toBe(false);
    await db().user.update({ where: { id: owner.id }, data: { disabledAt: null } });
    expect(await readSession(b.sessionId)).not.toBeNull();
    expect(await revokeUserSessions(owner.id)).toBe(1);
    expect(await readSession(b.sessionId)).toBeNull();
    expect(await readSession("not-a-uuid")).toBeNull();
  });

  it("every sign-in and failed sign-in is in the audit log with its address", async () => {
    const owner = await newUser();
    await attemptSignIn({ email: owner.email, password: "nope", ip: "198.51.100.30" });
    await attemptSignIn({ email: owner.email, password: owner.password, ip: "198.51.100.31" });
    const rows = await db().auditEvent.findMany({ where: { OR: [{ actorId: owner.id }, { details: { path: ["email"], equals: owner.email } }] }, orderBy: { id: "asc" } });
    expect(rows.map((r) => [r.action, r.ip])).toEqual([
      ["sign-in.failed", "198.51.100.30"],
      ["sign-in", "198.51.100.31"],
    ]);
  });

  // Issue 27 item 11: behind a proxy that writes ip:port, each client keeps its own throttle.
  it("two clients behind a proxy that forwards ip:port get separate sign-in throttles", async () => {
    const owner = await newUser();
    const trusted = parseCidrList("10.0.0.0/8");
    const via = (xff: string) => clientAddress(new Headers({ [PEER_HEADER]: peerHeaderValue("10.0.0.2"), "x-forwarded-for": xff }), trusted);
    const guesser = via("1.2.3.4:5555");
    const ownerIp = via("5.6.7.8:6666");
    expect([guesser, ownerIp]).toEqual(["1.2.3.4", "5.6.7.8"]);
    const t = new Date();
    for (let i = 0; i < POLICIES.signInAccountClient.free + 3; i++) await attemptSignIn({ email: owner.email, password: `guess-${i}`, ip: guesser }, t);
    const blocked = await attemptSignIn({ email: owner.email, password: owner.password, ip: guesser }, t);
    expect(!blocked.ok && blocked.message).toMatch(/try again/);
    const ok = await attemptSignIn({ email: owner.email, password: owner.password, ip: ownerIp }, t);
    expect(ok.ok).toBe(true);
  });
});
