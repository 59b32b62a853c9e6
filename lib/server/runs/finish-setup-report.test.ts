// Issue 27, item 9: a setup report is taken only for a run whose job carried a setup, and only
// about what that setup asked for; otherwise the finish is refused (400 naming the field) and
// nothing of it is stored or shown.
import crypto from "node:crypto";
import type { Prisma } from "@prisma/client";
import { describe, expect, it } from "vitest";
import type { FinishRequest, SetupReport } from "../../../probes/protocol/schemas";
import { hashSecret } from "../../auth/secret-token";
import { db } from "../../db";
import { connectTestDatabase } from "../../testing/db";
import { tunableHostCapabilities } from "../../testing/capabilities";
import { createExperimentSchema } from "../../api/schemas/experiments";
import { claimJob } from "../agent/claim-job";
import { createExperiment } from "../experiments/create-experiment";
import { finishRun } from "./finish-run";
import { getRun } from "./get-run";

connectTestDatabase();

const caps = tunableHostCapabilities;
const dd = "16+0 records in\n16+0 records out\n16777216 bytes (17 MB, 16 MiB) copied, 0.05 s, 335 MB/s\n";
const labReport: SetupReport = {
  lab: { fsType: "ext4", mkfsCommand: "mkfs.ext4 -F image", mountOptions: ["rw"], loopDevice: "/dev/loop7", driver: "ext4", imageBytes: 1 << 30, removed: true },
  tunables: [{ name: "vm.swappiness", device: null, from: "60", to: "1", restored: true }],
  droppedCaches: false,
  error: null,
};
const finish = (setup: SetupReport | null): FinishRequest => ({ exitCode: 0, signal: null, durationMs: 100, lastSeq: 0, error: null, cancelled: false, timedOut: false, interrupted: false, profile: null, setup });

async function host() {
  const hash = hashSecret(`pba_${crypto.randomUUID()}`);
  const h = await db().host.create({ data: { name: `setup-${crypto.randomUUID().slice(0, 6)}`, agentCredentialHash: hash, capabilities: caps as unknown as Prisma.InputJsonValue } });
  return { id: h.id, hash };
}

async function claim(hash: string) {
  const c = await claimJob({ credentialHash: hash, waitSec: 0 });
  if (!c || !("job" in c)) throw new Error("no job");
  await db().runLogChunk.create({ data: { runId: c.job.id, seq: 0, data: dd } });
  return c.job.id;
}

describe("setup reports", () => {
  it("a run launched without a setup refuses one, naming the field, and shows none", async () => {
    const h = await host();
    const run = await db().probeRun.create({ data: { hostId: h.id, probe: "dd", params: { sizeMiB: 16, blockSizeKiB: 1024, mode: "write", target: "/srv/pb" }, origin: "AGENT", status: "QUEUED" } });
    expect(await claim(h.hash)).toBe(run.id);
    await expect(finishRun({ runId: run.id, finish: finish(labReport) })).rejects.toMatchObject({ code: "BAD_REQUEST", status: 400, fieldErrors: { setup: [expect.any(String)] } });
    expect((await getRun({ id: run.id })).status).toBe("RUNNING");
    // The same finish without the report is taken.
    expect(await finishRun({ runId: run.id, finish: finish(null) })).toEqual({ status: "SUCCEEDED" });
    expect(await db().probeRun.findUniqueOrThrow({ where: { id: run.id }, select: { setup: true } })).toEqual({ setup: null });
  });

  it("an arm's report may only speak of what the arm asked for", async () => {
    const h = await host();
    const input = createExperimentSchema.parse({
      hostId: h.id,
      probe: "dd",
      params: { sizeMiB: 16, blockSizeKiB: 1024, mode: "write", direct: true, fdatasync: true, target: "/srv/pb" },
      arms: [{ tunables: { "vm.dirty_ratio": 10 } }, { tunables: { "vm.dirty_ratio": 40 } }],
      repeats: { min: 3, max: 3, warmup: false },
    });
    await createExperiment({ input, createdById: null });
    const runId = await claim(h.hash);
    const err = await finishRun({ runId, finish: finish(labReport) }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "BAD_REQUEST", fieldErrors: { "setup.lab": [expect.any(String)], "setup.tunables.0.name": [expect.stringMatching(/did not ask to change vm.swappiness/)] } });
    const fits: SetupReport = { lab: null, tunables: [{ name: "vm.dirty_ratio", device: null, from: "20", to: "10", restored: true }], droppedCaches: false, error: null };
    expect((await finishRun({ runId, finish: finish(fits) })).status).toBe("SUCCEEDED");
    expect((await db().probeRun.findUniqueOrThrow({ where: { id: runId }, select: { setup: true } })).setup).toEqual(fits);
  });
});
