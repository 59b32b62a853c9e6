import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { headlineValues, parseOutput, type NormalisedResult } from "../../probes/catalog";
import { summariseExperiment } from "./summarise";

const fixture = (probe: string, name: string): NormalisedResult => {
  const out = parseOutput(probe, fs.readFileSync(path.join(__dirname, "..", "..", "probes", probe, "fixtures", name), "utf8"));
  if (!out.ok) throw new Error(out.error);
  return out.result;
};

describe("headline figures per probe", () => {
  it("dd: throughput in MiB/s with the verb of its mode", () => {
    const h = headlineValues("dd", fixture("dd", "dd-write-direct-loop-ext4.stderr.txt"), { target: "/t", sizeMiB: 128, mode: "write" });
    expect(h).toEqual([expect.objectContaining({ metric: "throughput", unit: "MiB/s", verb: "wrote", betterWhen: "higher" })]);
  });

  it("fio: bandwidth, IOPS and p99 of each direction that did I/O; fsmeta: files/s per step; sar: chosen columns' means", () => {
    const fio = headlineValues("fio", fixture("fio", "fio-3.33-fsync-write.json"), { target: "/t" });
    expect(new Set(fio.map((x) => x.metric))).toEqual(new Set(["bw", "iops", "clat_p99"]));
    expect(fio.every((x) => x.value > 0 && x.dims.direction !== "read")).toBe(true);
    expect(fio.find((x) => x.metric === "clat_p99")).toMatchObject({ unit: "µs", betterWhen: "lower" });
    const meta = headlineValues("fsmeta", fixture("fsmeta", "fsmeta-flat-50k-loop-ext3.txt"), { target: "/t" });
    expect(meta.map((x) => x.dims.op).sort()).toEqual(["create", "delete", "stat"]);
    const sar = headlineValues("sar", fixture("sar", "gen-sar-B-d-r-u.txt"), { target: "/t" });
    expect(sar.length).toBeGreaterThan(0);
    expect(sar.every((x) => x.betterWhen === "lower" && x.dims.time === "average")).toBe(true);
  });

  it("groups runs per arm and compares each arm with the first; failed runs count as ids only", () => {
    const result = (mbps: number): NormalisedResult => ({ tool: "dd", toolVersion: null, warnings: [], measurements: [{ metric: "throughput", value: mbps * 2 ** 20, unit: "B/s", dims: {} }] });
    const params = { target: "/t", sizeMiB: 16, mode: "write" };
    const runs = [100, 101, 99, 150, 152, 149].map((v, i) => ({ id: `r${i}`, armIndex: i < 3 ? 0 : 1, status: "SUCCEEDED", params, result: result(v), warnings: i === 0 ? ["page cache"] : [] }));
    const s = summariseExperiment({ probe: "dd", armLabels: ["ext4", "xfs"], runs: [...runs, { id: "bad", armIndex: 1, status: "FAILED", params, result: null }] });
    expect(s.arms.map((a) => [a.label, a.median, a.runIds.length])).toEqual([
      ["ext4", 100, 3],
      ["xfs", 150, 4],
    ]);
    expect(s.verdict).toHaveLength(1);
    expect(s.verdict[0]!.ratio).toBeCloseTo(1.5, 1);
    expect(s.verdict[0]!.sentence).toBe("xfs wrote 50 % faster than ext4 (90 % CI 48–54 %, 3 runs each).");
    expect(s.warnings).toEqual(["page cache"]);
  });
});
