/**
 * A run made with the storage guide's QD1 preset and the article's random 4 KB reference runs
 * must land on the same compare chart. Runs real fio (a shortened QD1 read on a small file:
 * same engine, depth, block size and O_DIRECT as the preset) and the real compare model.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { listDatasets } from "../../../content/datasets";
import { buildComparison } from "../../compare/model";
import { compareRun } from "../../compare/testing";
import { parseOutput, presetParams } from "../../../probes/catalog";
import { buildFioCommand } from "../../../probes/fio/command";
import type { FioParams } from "../../../probes/fio/params";
import { referenceRunsFromDatasets } from "./reference-runs";

const run = promisify(execFile);
// On the repository's disk, not /tmp: O_DIRECT needs a file system that accepts it.
const dir = fs.mkdtempSync(path.join(process.cwd(), ".fio-qd1-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("QD1 preset run beside the article's reference runs", () => {
  it("shares the fio bandwidth chart's read category with the disk and flash figures", async () => {
    const v = presetParams("fio:rand-read-4k", dir);
    expect(v.ok).toBe(true);
    // The preset's method with a small file and a 1 s run, so the test stays quick.
    const params = { ...(v.ok ? (v.params as FioParams) : ({} as FioParams)), sizeMiB: 16, runtimeSec: 1 };
    const cmd = buildFioCommand(params, dir);
    const { stdout } = await run(cmd.file, cmd.args, { cwd: cmd.cwd, env: { ...process.env, ...cmd.env }, maxBuffer: 8 << 20 });
    const parsed = parseOutput("fio", stdout);
    expect(parsed.ok, parsed.ok ? "" : parsed.error).toBe(true);
    if (!parsed.ok) return;

    const mine = compareRun({ probe: "fio", params, result: parsed.result, hostKey: "host:local", hostName: os.hostname() });
    const refs = referenceRunsFromDatasets(listDatasets())
      .filter((r) => r.datasetId === "baidu-media-random-4k")
      .map((r) =>
        compareRun({
          id: r.id,
          probe: "fio",
          origin: "REFERENCE",
          hostName: r.hostLabel,
          hostKey: `label:${r.hostLabel}`,
          params: r.params,
          fsType: r.fsType,
          medium: r.medium,
          profile: r.profile,
          result: r.result,
        }),
      );
    const model = buildComparison([mine, ...refs], { fold: true });
    const fio = model.sections.find((s) => s.probe === "fio")!;
    const bw = fio.charts.find((c) => c.id === "fio-bw")!;
    const read = bw.rows.find((r) => r.x === "read")!;
    const mineKey = model.series.find((s) => s.runIds.includes(mine.id))!.key;
    const refKeys = model.series.filter((s) => s.runIds.some((id) => refs.some((r) => r.id === id && r.params.rw === "randread"))).map((s) => s.key);
    expect(refKeys).toHaveLength(2); // disk and flash reads
    expect(Object.keys(read.stats)).toEqual(expect.arrayContaining([mineKey, ...refKeys]));
    expect(read.stats[refKeys[0]!]!.median).toBeGreaterThan(0);
    // The reference runs carry the preset's method, so only size, runtime and target differ.
    const differs = model.differs.fields.find((f) => f.id === "params");
    expect(differs?.values[mineKey]).toMatch(/psync/);
    expect(differs?.values[refKeys[0]!]).toMatch(/psync/);
  }, 60_000);
});
