import crypto from "node:crypto";
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Prisma } from "@prisma/client";
import { afterAll, describe, expect, it } from "vitest";
import { guardJob } from "../../../probes/agent/job-guard";
import type { Capabilities } from "../../../probes/protocol/schemas";
import { db } from "../../db";
import { connectTestDatabase } from "../../testing/db";
import { createRun } from "./create-run";

connectTestDatabase();

// A real directory, so that the agent's guard can resolve it; the free space is what each side is told.
const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), "probebook-admission-")));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const MiB = 2 ** 20;
const tool = { installed: true, version: "9.1", path: "/usr/bin/dd" };
const caps: Capabilities = { agentVersion: "1", tools: { dd: tool }, allowedDirs: [dir] };

/** A host whose agent reported `dir` with `freeBytes` free. */
async function hostWithFree(freeBytes: number) {
  const profile = { targets: [{ path: dir, fsType: "ext4", freeBytes }] };
  return db().host.create({
    data: { name: `adm-${crypto.randomUUID().slice(0, 8)}`, capabilities: caps as unknown as Prisma.InputJsonValue, profile: profile as Prisma.InputJsonValue },
  });
}

const operator = () =>
  db().user.create({ data: { email: `adm-${crypto.randomUUID().slice(0, 8)}@example.test`, passwordHash: "x", role: "OPERATOR" } });

const ddWrite = { target: dir, sizeMiB: 64, blockSizeKiB: 1024, mode: "write", direct: true, fdatasync: true };

describe("createRun and the agent apply one admission rule", () => {
  it("refuses a run the agent would refuse: room for the file but not the 64 MiB margin", async () => {
    const [h, user] = [await hostWithFree(96 * MiB), await operator()];
    const err = await createRun({ input: { hostId: h.id, probe: "dd", params: ddWrite, repeats: 1 }, createdById: user.id }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "BAD_REQUEST", fieldErrors: { "params.target": ["Needs 0.1 GiB free, has 0.1 GiB."] } });
    expect((err as Error).message).toMatch(/writes 0\.1 GiB and needs 0\.1 GiB free with the agent's 64 MiB margin/);
    expect(await db().probeRun.count({ where: { hostId: h.id } })).toBe(0);
  });

  it("queues exactly what the agent then runs, at every free space around the margin", async () => {
    const user = await operator();
    for (const freeMiB of [63, 64, 96, 127, 128, 129, 512]) {
      const h = await hostWithFree(freeMiB * MiB);
      const server = await createRun({ input: { hostId: h.id, probe: "dd", params: ddWrite, repeats: 1 }, createdById: user.id }).then(
        () => true,
        () => false,
      );
      const agent = await guardJob({ runId: crypto.randomUUID(), probe: "dd", params: ddWrite }, { allowedDirs: [dir], freeBytes: async () => freeMiB * MiB });
      if (agent.ok) rmSync(agent.runDir, { recursive: true });
      expect({ freeMiB, server }).toEqual({ freeMiB, server: agent.ok });
    }
  });
});

describe("createRun's preset and series", () => {
  it("records the preset, merges its parameters under the given ones and puts runs of one configuration in one series", async () => {
    const [h, user] = [await hostWithFree(4096 * MiB), await operator()];
    const a = await createRun({ input: { hostId: h.id, probe: "dd", preset: "write-direct", params: { target: dir, sizeMiB: 64 }, repeats: 2 }, createdById: user.id });
    // The same values typed by hand (defaults filled in by validation) are the same series.
    const b = await createRun({ input: { hostId: h.id, probe: "dd", params: { target: dir, sizeMiB: 64 }, repeats: 1 }, createdById: user.id });
    const other = await createRun({ input: { hostId: h.id, probe: "dd", params: { target: dir, sizeMiB: 32 }, repeats: 1 }, createdById: user.id });
    const rows = await db().probeRun.findMany({ where: { id: { in: [...a.ids, ...b.ids, ...other.ids] } }, select: { id: true, preset: true, seriesId: true, params: true } });
    const byId = new Map(rows.map((r) => [r.id, r]));
    const [a1, a2, b1, o1] = [byId.get(a.ids[0]!)!, byId.get(a.ids[1]!)!, byId.get(b.ids[0]!)!, byId.get(other.ids[0]!)!];
    expect(a1.preset).toBe("write-direct");
    expect(b1.preset).toBeNull();
    expect(a1.params).toMatchObject({ sizeMiB: 64, blockSizeKiB: 1024, direct: true });
    expect(a1.seriesId).not.toBeNull();
    expect([a2.seriesId, b1.seriesId]).toEqual([a1.seriesId, a1.seriesId]);
    expect(o1.seriesId).not.toBe(a1.seriesId);
    const series = await db().series.findUniqueOrThrow({ where: { id: a1.seriesId! } });
    expect(series).toMatchObject({ hostId: h.id, probe: "dd", preset: "write-direct", target: dir, windowRuns: 5, thresholdPct: 5 });
  });

  it("refuses an unknown preset naming the field, and queues nothing", async () => {
    const [h, user] = [await hostWithFree(4096 * MiB), await operator()];
    const err = await createRun({ input: { hostId: h.id, probe: "dd", preset: "nope", params: { target: dir }, repeats: 1 }, createdById: user.id }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "BAD_REQUEST", fieldErrors: { preset: [expect.stringContaining("write-direct")] } });
    expect(await db().probeRun.count({ where: { hostId: h.id } })).toBe(0);
  });

  it("refuses a parameter name the probe does not know instead of running the preset's size, naming it and the close match", async () => {
    const [h, user] = [await hostWithFree(4096 * MiB), await operator()];
    const err = await createRun({ input: { hostId: h.id, probe: "dd", preset: "write-direct", params: { target: dir, sizemib: 8 }, repeats: 1 }, createdById: user.id }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "BAD_REQUEST", fieldErrors: { "params.sizemib": [expect.stringMatching(/^unknown parameter sizemib \(did you mean sizeMiB\?\); valid: target, sizeMiB/)] } });
    expect(await db().probeRun.count({ where: { hostId: h.id } })).toBe(0);
  });
});
