// finish stores the flags of the checks against the run's telemetry, on real PostgreSQL, with the
// telemetry and output of a real capture sent the way the agent sends them (chunks).
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { TelemetrySample } from "../../../probes/telemetry/types";
import { generateSecret, hashSecret } from "../../auth/secret-token";
import { db } from "../../db";
import { connectTestDatabase } from "../../testing/db";
import { ingestChunks } from "../agent/ingest-chunks";
import { finishRun } from "./finish-run";
import { getRun } from "./get-run";

connectTestDatabase();

const capture = JSON.parse(fs.readFileSync(path.join(__dirname, "../../../probes/checks/fixtures/telemetry-dd-read-buffered-cached.json"), "utf8")) as {
  stderr: string;
  samples: TelemetrySample[];
};
const profile = { cpu: { count: 2 }, memory: { totalBytes: 24 * 2 ** 30 }, target: { path: "/var/tmp", fsType: "ext4", device: "vda" } };
const finish = { exitCode: 0, signal: null, error: null, cancelled: false, timedOut: false, interrupted: false, setup: null };

async function agentRun(params: object) {
  const credentialHash = hashSecret(generateSecret("pba"));
  const host = await db().host.create({ data: { name: `checks-${crypto.randomUUID().slice(0, 8)}`, agentCredentialHash: credentialHash } });
  const run = await db().probeRun.create({ data: { hostId: host.id, probe: "dd", params, status: "RUNNING", startedAt: new Date(), lastActivityAt: new Date() } });
  return { credentialHash, runId: run.id };
}

describe("finishRun: checks against telemetry", () => {
  it("a buffered dd read of a cached file is stored with its flags and checked_at", async () => {
    const { credentialHash, runId } = await agentRun({ target: "/var/tmp", sizeMiB: 2048, mode: "read", blockSizeKiB: 4, direct: false, fdatasync: false });
    await ingestChunks({ credentialHash, runId, chunks: [{ seq: 0, data: "", telemetry: capture.samples }, { seq: 1, data: capture.stderr }] });
    const { status } = await finishRun({ runId, finish: { ...finish, durationMs: 1500, lastSeq: 1, profile } });
    expect(status).toBe("SUCCEEDED");
    const run = await getRun({ id: runId });
    expect(run.checkedAt).not.toBeNull();
    expect(run.flags.map((f) => f.code)).toEqual(["too-short", "too-few-samples", "cache-served-read"]);
    expect(run.flags.find((f) => f.code === "cache-served-read")?.evidence).toMatch(/^the device read 0\.2 MiB while dd read 2,048 MiB without iflag=direct/);
  });

  it("a run without telemetry is not checked against it: only its duration is judged", async () => {
    const { credentialHash, runId } = await agentRun({ target: "/var/tmp", sizeMiB: 2048, mode: "read", blockSizeKiB: 4, direct: false, fdatasync: false });
    await ingestChunks({ credentialHash, runId, chunks: [{ seq: 0, data: capture.stderr }] });
    await finishRun({ runId, finish: { ...finish, durationMs: 1500, lastSeq: 0, profile } });
    const row = await db().probeRun.findUniqueOrThrow({ where: { id: runId }, select: { flags: true, checkedAt: true } });
    expect(row.checkedAt).toBeNull();
    expect((row.flags as { code: string }[]).map((f) => f.code)).toEqual(["too-short"]);
  });
});

describe("finishRun: the agent's notes", () => {
  it("a run whose spool the agent could not write succeeds, with the note among its warnings", async () => {
    const { credentialHash, runId } = await agentRun({ target: "/var/tmp", sizeMiB: 2048, mode: "read", blockSizeKiB: 4, direct: false, fdatasync: false });
    await ingestChunks({ credentialHash, runId, chunks: [{ seq: 0, data: capture.stderr }] });
    const note = "The agent could not write this run's spool in /var/lib/probebook-agent/spool (ENOSPC: no space left on device, write); the output was delivered from memory only.";
    const { status } = await finishRun({ runId, finish: { ...finish, durationMs: 1500, lastSeq: 0, profile, agentNotes: [note] } });
    expect(status).toBe("SUCCEEDED");
    expect((await getRun({ id: runId })).warnings).toContain(note);
  });
});
