// Issue 27, items 3 and 4: re-registering a host takes the right to delete it; deleting a host
// keeps every experiment on it (other users' included), audits what it removed, and the agent
// that had an arm in flight may still deliver that run's setup report, and only that.
import crypto from "node:crypto";
import type { Prisma } from "@prisma/client";
import { describe, expect, it } from "vitest";
import type { FinishRequest, SetupReport } from "../../../probes/protocol/schemas";
import type { Actor } from "../../auth/actor";
import { hashSecret } from "../../auth/secret-token";
import { db } from "../../db";
import { connectTestDatabase } from "../../testing/db";
import { tunableHostCapabilities } from "../../testing/capabilities";
import { experimentResponseSchema, createExperimentSchema } from "../../api/schemas/experiments";
import { acceptFinalReport } from "../agent/accept-final-report";
import { claimJob } from "../agent/claim-job";
import { ingestChunks } from "../agent/ingest-chunks";
import { experimentCsv } from "../experiments/export-experiment";
import { createExperiment } from "../experiments/create-experiment";
import { experimentJson, getExperiment } from "../experiments/get-experiment";
import { listExperiments } from "../experiments/list-experiments";
import { CREDENTIAL_REVOKED_MESSAGE, reissueRegistration } from "./create-host";
import { deleteHost, HOST_REMOVED_MESSAGE } from "./delete-host";

connectTestDatabase();

const caps = tunableHostCapabilities;

async function actor(role: Actor["role"]): Promise<Actor> {
  const u = await db().user.create({ data: { email: `own-${crypto.randomUUID().slice(0, 8)}@example.com`, passwordHash: "x", role } });
  return { userId: u.id, email: u.email, role, via: "session" };
}

async function hostOf(owner: Actor) {
  const credential = `pba_${crypto.randomUUID()}`;
  const host = await db().host.create({
    data: { name: `own-${crypto.randomUUID().slice(0, 6)}`, createdById: owner.userId, agentCredentialHash: hashSecret(credential), capabilities: caps as unknown as Prisma.InputJsonValue },
  });
  return { host, credential, hash: hashSecret(credential) };
}

/** Another user's dirty_ratio experiment on the host, its first run claimed by the host's agent (in flight). */
async function experimentInFlight(hostId: string, hash: string, by: Actor) {
  const input = createExperimentSchema.parse({
    hostId,
    probe: "dd",
    params: { sizeMiB: 16, blockSizeKiB: 1024, mode: "write", direct: true, fdatasync: true, target: "/srv/pb" },
    arms: [{ tunables: { "vm.dirty_ratio": 10 } }, { tunables: { "vm.dirty_ratio": 40 } }],
    repeats: { min: 3, max: 3, warmup: false },
  });
  const { id } = await createExperiment({ input, createdById: by.userId });
  const claimed = await claimJob({ credentialHash: hash, waitSec: 0 });
  if (!claimed || !("job" in claimed)) throw new Error("no job claimed");
  return { experimentId: id, runId: claimed.job.id, armIndex: claimed.job.arm_index ?? 0 };
}

const report = (value: string, restored: boolean): SetupReport => ({ lab: null, tunables: [{ name: "vm.dirty_ratio", device: null, from: "20", to: value, restored }], droppedCaches: false, error: null });
const finishWith = (setup: SetupReport | null): FinishRequest => ({ exitCode: null, signal: null, durationMs: 10, lastSeq: -1, error: null, cancelled: true, timedOut: false, interrupted: false, profile: null, setup });

describe("re-registering a host", () => {
  it("only whoever added the host, or an admin, may revoke its agent and get a new token", async () => {
    const owner = await actor("OPERATOR");
    const { host, hash } = await hostOf(owner);
    for (const other of [await actor("OPERATOR"), await actor("VIEWER")]) {
      await expect(reissueRegistration({ hostId: host.id, actor: other })).rejects.toMatchObject({ code: "FORBIDDEN", status: 403 });
    }
    // Nothing changed: the real agent's credential still works, no token was issued.
    expect(await db().host.findUniqueOrThrow({ where: { id: host.id } })).toMatchObject({ agentCredentialHash: hash, registrationTokenHash: null });
    const byOwner = await reissueRegistration({ hostId: host.id, actor: owner });
    expect(byOwner.registrationToken).toMatch(/^pbr_/);
    expect((await db().host.findUniqueOrThrow({ where: { id: host.id } })).agentCredentialHash).toBeNull();
    const byAdmin = await reissueRegistration({ hostId: host.id, actor: await actor("ADMIN") });
    expect(byAdmin.registrationToken).not.toBe(byOwner.registrationToken);
    await expect(reissueRegistration({ hostId: crypto.randomUUID(), actor: owner })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("ends the run in flight, whose agent may then deliver its setup report once", async () => {
    const owner = await actor("OPERATOR");
    const { host, hash } = await hostOf(owner);
    const { runId, experimentId } = await experimentInFlight(host.id, hash, await actor("OPERATOR"));
    expect((await reissueRegistration({ hostId: host.id, actor: owner })).runsEnded).toBe(1);
    expect(await db().probeRun.findUniqueOrThrow({ where: { id: runId } })).toMatchObject({ status: "CANCELLED", errorMessage: CREDENTIAL_REVOKED_MESSAGE, finalReportCredentialHash: hash });
    expect(await acceptFinalReport({ runId, credentialHash: hash, finish: finishWith(report("20", true)) })).toEqual({ status: "CANCELLED" });
    expect((await getExperiment({ id: experimentId })).reverted).toBe(true);
  });
});

describe("deleting a host", () => {
  it("keeps another user's experiment, from a removed host, on every page's source, and audits what it removed", async () => {
    const owner = await actor("OPERATOR");
    const scientist = await actor("OPERATOR");
    const { host, hash } = await hostOf(owner);
    const { experimentId, runId, armIndex } = await experimentInFlight(host.id, hash, scientist);
    const r = await deleteHost({ id: host.id, actor: owner, ip: "10.0.0.9" });
    expect(r).toMatchObject({ runsKept: 2, runsCancelled: 2, runsInFlight: 1, experimentsKept: 1, experimentsEnded: 1 });

    const v = await getExperiment({ id: experimentId });
    expect(v).toMatchObject({ hostId: null, hostName: host.name, hostRemoved: true, status: "FAILED", reverted: false });
    expect(v.decisionMessage).toContain(HOST_REMOVED_MESSAGE);
    expect(experimentResponseSchema.strict().safeParse(experimentJson(v)).error?.issues ?? []).toEqual([]);
    expect((await listExperiments()).find((e) => e.id === experimentId)).toMatchObject({ hostName: host.name, hostRemoved: true });
    expect(await experimentCsv({ id: experimentId })).toContain(`host,host_removed\r\n${host.name},true\r\n`);

    const audit = await db().auditEvent.findFirstOrThrow({ where: { action: "host.delete", targetId: host.id } });
    expect(audit).toMatchObject({ actorId: owner.userId, ip: "10.0.0.9" });
    expect(audit.details).toEqual({ name: host.name, runsKept: 2, runsCancelled: 2, runsInFlight: 1, experimentsKept: 1, experimentsEnded: 1, anyRunInFlight: true, agentCredentialRevoked: true });

    // The revoked credential: no output, no finish without a report, no report about what the arm did not ask.
    await expect(ingestChunks({ credentialHash: hash, runId, chunks: [{ seq: 0, data: "after" }] })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect(acceptFinalReport({ runId, credentialHash: hash, finish: finishWith(null) })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect(acceptFinalReport({ runId, credentialHash: hashSecret("pba_other"), finish: finishWith(report("5", true)) })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    const stray = { ...report("5", true), tunables: [{ name: "vm.swappiness", device: null, from: "60", to: "1", restored: true }] };
    await expect(acceptFinalReport({ runId, credentialHash: hash, finish: finishWith(stray) })).rejects.toMatchObject({ code: "BAD_REQUEST", fieldErrors: { "setup.tunables.0.name": [expect.any(String)] } });
    const queued = await db().probeRun.findFirstOrThrow({ where: { experimentId, id: { not: runId } } });
    await expect(acceptFinalReport({ runId: queued.id, credentialHash: hash, finish: finishWith(report("5", true)) })).rejects.toMatchObject({ code: "UNAUTHORIZED" });

    // The arm's report: recorded on the run, the experiment now knows the host was put back.
    const value = armIndex === 0 ? "10" : "40";
    expect(await acceptFinalReport({ runId, credentialHash: hash, finish: finishWith(report(value, true)) })).toEqual({ status: "CANCELLED" });
    const after = await getExperiment({ id: experimentId });
    expect(after.reverted).toBe(true);
    expect(after.runs.find((x) => x.id === runId)?.setup?.tunables).toEqual([{ name: "vm.dirty_ratio", device: null, from: "20", to: value, restored: true }]);
    // Once.
    await expect(acceptFinalReport({ runId, credentialHash: hash, finish: finishWith(report(value, false)) })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });
});
