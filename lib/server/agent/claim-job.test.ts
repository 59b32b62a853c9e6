import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { generateSecret, hashSecret } from "../../auth/secret-token";
import { db } from "../../db";
import { connectTestDatabase } from "../../testing/db";
import { notifyHost } from "../../instance/notify";
import { claimJob } from "./claim-job";

connectTestDatabase();

async function agentHost() {
  const credentialHash = hashSecret(generateSecret("pba"));
  const host = await db().host.create({ data: { name: `claim-${crypto.randomUUID().slice(0, 8)}`, agentCredentialHash: credentialHash } });
  return { host, credentialHash };
}

const queue = (hostId: string, createdAt = new Date()) =>
  db().probeRun.create({ data: { hostId, probe: "dd", params: { sizeMiB: 1 }, createdAt } });

describe("claimJob", () => {
  it("hands out the host's oldest queued run once, marked running", async () => {
    const { host, credentialHash } = await agentHost();
    const newer = await queue(host.id, new Date(Date.now() - 1000));
    const older = await queue(host.id, new Date(Date.now() - 5000));
    const first = await claimJob({ credentialHash, waitSec: 0 });
    expect(first).toMatchObject({ job: { id: older.id, probe: "dd", params: { sizeMiB: 1 }, experiment_id: null } });
    expect((await db().probeRun.findUniqueOrThrow({ where: { id: older.id } })).status).toBe("RUNNING");
    expect(await claimJob({ credentialHash, waitSec: 0 })).toMatchObject({ job: { id: newer.id } });
    expect(await claimJob({ credentialHash, waitSec: 0 })).toBeNull();
  });

  it("never hands out another host's run", async () => {
    const a = await agentHost();
    const b = await agentHost();
    await queue(b.host.id);
    expect(await claimJob({ credentialHash: a.credentialHash, waitSec: 0 })).toBeNull();
  });

  it("answers a pending tools re-check when nothing is queued", async () => {
    const { host, credentialHash } = await agentHost();
    await db().host.update({ where: { id: host.id }, data: { toolsRecheckRequestedAt: new Date() } });
    expect(await claimJob({ credentialHash, waitSec: 0 })).toEqual({ requests: { recheckTools: true } });
    await db().host.update({ where: { id: host.id }, data: { toolsCheckedAt: new Date(Date.now() + 1000) } });
    expect(await claimJob({ credentialHash, waitSec: 0 })).toBeNull();
  });

  it("gives no job to an agent whose reported protocol this server no longer speaks, refusing its claim with the upgrade", async () => {
    const { host, credentialHash } = await agentHost();
    const run = await queue(host.id);
    await db().host.update({ where: { id: host.id }, data: { agentVersion: "0.0.1", agentProtocolVersion: 99 } });
    await expect(claimJob({ credentialHash, waitSec: 0 })).rejects.toMatchObject({ code: "UPGRADE_REQUIRED", message: expect.stringMatching(/probebook-agent 0\.0\.1, protocol 99\) is newer than this server/) });
    expect((await db().probeRun.findUniqueOrThrow({ where: { id: run.id } })).status).toBe("QUEUED");
    // After the agent's upgrade (its start reports protocol 1), or for agents that never reported one.
    await db().host.update({ where: { id: host.id }, data: { agentProtocolVersion: null } });
    expect(await claimJob({ credentialHash, waitSec: 0 })).toMatchObject({ job: { id: run.id } });
  });

  it("refuses a credential revoked after this instance first saw it", async () => {
    const { host, credentialHash } = await agentHost();
    expect(await claimJob({ credentialHash, waitSec: 0 })).toBeNull();
    await db().host.update({ where: { id: host.id }, data: { agentCredentialHash: hashSecret(generateSecret("pba")) } });
    await expect(claimJob({ credentialHash, waitSec: 0 })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect(claimJob({ credentialHash: hashSecret("pba_unknown"), waitSec: 0 })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });

  it("wakes a waiting long-poll when a run is queued for its host", async () => {
    const { host, credentialHash } = await agentHost();
    const polling = claimJob({ credentialHash, waitSec: 30 });
    // Queued while the poll waits: only the notification can answer it before its 24–30 s.
    await new Promise((r) => setTimeout(r, 200));
    const run = await queue(host.id);
    await notifyHost(host.id);
    const outcome = await polling;
    expect(outcome).toMatchObject({ job: { id: run.id } });
  });

  it("returns nothing when the caller goes away", async () => {
    const { credentialHash } = await agentHost();
    const abort = new AbortController();
    const polling = claimJob({ credentialHash, waitSec: 30, signal: abort.signal });
    setTimeout(() => abort.abort(), 100);
    expect(await polling).toBeNull();
  });
});
