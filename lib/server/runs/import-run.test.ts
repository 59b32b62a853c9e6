import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "../../db";
import { connectTestDatabase } from "../../testing/db";
import { fixture } from "../../../probes/core/testing";
import type { Measurement } from "../../../probes/core/types";
import { importRun, previewImport } from "./import-run";

connectTestDatabase();

const ddOutput = "960+0 records in\n960+0 records out\n1006632960 bytes (1.0 GB, 960 MiB) copied, 2.5 s, 403 MB/s\n";
const operator = () => db().user.create({ data: { email: `imp-${crypto.randomUUID().slice(0, 8)}@example.test`, passwordHash: "x", role: "OPERATOR" } });

describe("importRun (the same store as host history days)", () => {
  it("keeps the output as a SUCCEEDED, host-less IMPORTED run with its log", async () => {
    const user = await operator();
    const { id, format } = await importRun({ input: { probe: "dd", output: ddOutput, hostLabel: "laptop", notes: "before the upgrade" }, createdById: user.id });
    const run = await db().probeRun.findUniqueOrThrow({ where: { id }, include: { chunks: { orderBy: { seq: "asc" } } } });
    expect(run).toMatchObject({ probe: "dd", origin: "IMPORTED", status: "SUCCEEDED", hostId: null, hostLabel: "laptop", notes: "before the upgrade", createdById: user.id, historyDay: null, profile: null });
    expect(run.chunks.map((c) => c.data).join("")).toBe(ddOutput);
    expect(run.result).toMatchObject({ tool: "dd" });
    expect(format).toBe((run.result as { format?: string }).format ?? null);
  });

  it("refuses output its parser cannot read, storing nothing", async () => {
    const user = await operator();
    const err = await importRun({ input: { probe: "fio", output: "hello", hostLabel: "laptop" }, createdById: user.id }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "BAD_REQUEST", fieldErrors: { output: [expect.any(String)] } });
    expect(await db().probeRun.count({ where: { createdById: user.id } })).toBe(0);
  });

  describe("a paste holding two dd runs (a bash session with prompts, colour and `time`)", () => {
    const session = fixture("dd", "paste-bash-time-session.txt");
    const write = "dd if=/dev/zero of=/tmp/pastefx/a.bin bs=1M count=64 conv=fdatasync";
    const read = "dd if=/tmp/pastefx/a.bin of=/dev/null bs=1M";
    const figure = (result: unknown, metric: string, dims: Record<string, unknown> = {}) =>
      (result as { measurements: Measurement[] }).measurements.find((m) => m.metric === metric && Object.entries(dims).every(([k, v]) => m.dims[k] === v))?.value;

    it("the preview says so, with each run's command and time", async () => {
      expect(await previewImport({ input: { probe: "dd", output: session } })).toEqual({
        format: "coreutils dd",
        measurements: 6,
        summary: "2 dd runs found",
        runs: [
          { run: 1, command: write, realSeconds: 0.188 },
          { run: 2, command: read, realSeconds: 0.012 },
        ],
      });
      expect((await previewImport({ input: { probe: "dd", output: ddOutput } })).summary).toBe("1 dd run found");
    });

    it("is refused without a choice, naming the field", async () => {
      const user = await operator();
      const err = await importRun({ input: { probe: "dd", output: session, hostLabel: "lab" }, createdById: user.id }).catch((e: unknown) => e);
      expect(err).toMatchObject({ code: "BAD_REQUEST", fieldErrors: { runs: [expect.stringContaining("2 dd runs")] } });
      expect(await db().probeRun.count({ where: { createdById: user.id } })).toBe(0);
    });

    it('"separate" stores two runs, each with its own lines as its log and its command as its note', async () => {
      const user = await operator();
      const { ids, runs } = await importRun({ input: { probe: "dd", output: session, hostLabel: "lab", notes: "new box", runs: "separate" }, createdById: user.id });
      expect(runs).toBe(2);
      expect(ids).toHaveLength(2);
      const stored = await Promise.all(ids.map((id) => db().probeRun.findUniqueOrThrow({ where: { id }, include: { chunks: { orderBy: { seq: "asc" } } } })));
      expect(stored.map((r) => r.notes)).toEqual([`$ ${write}\nnew box`, `$ ${read}\nnew box`]);
      expect(stored.map((r) => [figure(r.result, "bytes"), figure(r.result, "seconds")])).toEqual([
        [67108864, 0.179999],
        [67108864, 0.0110644],
      ]);
      expect(stored[0]!.chunks.map((c) => c.data).join("")).toContain(write);
      expect(stored[0]!.chunks.map((c) => c.data).join("")).not.toContain(read);
    });

    it('"series" stores one run whose measurements carry run 1 and 2', async () => {
      const user = await operator();
      const { ids } = await importRun({ input: { probe: "dd", output: session, hostLabel: "lab", runs: "series" }, createdById: user.id });
      expect(ids).toHaveLength(1);
      const run = await db().probeRun.findUniqueOrThrow({ where: { id: ids[0] } });
      expect([figure(run.result, "seconds", { run: 1, command: write }), figure(run.result, "seconds", { run: 2, command: read })]).toEqual([0.179999, 0.0110644]);
    });
  });
});
