// The run's findings as the run page and GET /api/runs/:id compute them, on real captures: the
// stored samples go through the API's own reader (toPoint), and a read's rate comes from the run's
// parameters and its parsed dd summary.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseOutput } from "../../../probes/catalog";
import { findingsOf } from "./get-run-findings";
import { toPoint, type TelemetryPoint } from "./get-run-telemetry";
import { telemetryCsvRows } from "./telemetry-export";

const fixtures = path.join(import.meta.dirname, "../../diagnosis/fixtures");
const capture = (name: string) => JSON.parse(fs.readFileSync(path.join(fixtures, `${name}.json`), "utf8")) as { stderr: string; samples: unknown[] };
const stored = (name: string): TelemetryPoint[] => capture(name).samples.map((s) => toPoint(s)).filter((p): p is TelemetryPoint => p !== null);
const ddResult = (name: string) => {
  const parsed = parseOutput("dd", capture(name).stderr);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.result;
};
const rules = (f: { rule: string }[]) => f.map((x) => x.rule).sort();

describe("findings of a run", () => {
  it("every captured sample passes the protocol's schema when read back", () => {
    for (const name of ["telemetry-idle", "telemetry-dd-read-cached", "telemetry-dd-write-dirty-ratio-2"]) {
      expect(stored(name)).toHaveLength(capture(name).samples.length);
    }
  });

  it("a dd read served from the page cache: the run's own rate against the device's reads", () => {
    const samples = stored("telemetry-dd-read-cached");
    const read = { probe: "dd", params: { mode: "read", sizeMiB: 1024 }, result: ddResult("telemetry-dd-read-cached") };
    const findings = findingsOf(read, samples);
    expect(rules(findings)).toEqual(["page-cache-reads"]);
    expect(findings[0]!.guide?.href).toMatch(/^\/guides\/ext2-ext3-ext4-iozone#/);
    expect(findings[0]!.evidence.samples[0]!.values["probe.readKBs"]).toBeGreaterThan(1_000_000);
    // The same samples under a write say nothing about reads.
    expect(findingsOf({ ...read, params: { mode: "write", sizeMiB: 1024 } }, samples)).toEqual([]);
  });

  it("a direct read the device served stays silent", () => {
    expect(findingsOf({ probe: "dd", params: { mode: "read", direct: true }, result: ddResult("telemetry-dd-read-direct") }, stored("telemetry-dd-read-direct"))).toEqual([]);
  });

  it("write-back pacing from a dd write's telemetry, with the dirty sysctls of the run's profile", () => {
    const name = "telemetry-dd-write-slow-loop-dirty-bytes-64m";
    const profile = { sysctls: { "vm.dirty_bytes": "67108864", "vm.dirty_background_bytes": "16777216", "vm.dirty_ratio": "0" }, target: { path: "/mnt/inner", device: "loop4", rotational: true } };
    const findings = findingsOf({ probe: "dd", params: { mode: "write" }, result: null, profile }, stored(name));
    const f = findings.find((x) => x.rule === "writeback-throttling");
    expect(f?.summary).toMatch(/This host ran with vm\.dirty_bytes 67108864, vm\.dirty_background_bytes 16777216/);
    expect(f?.mechanism).toMatch(/balance_dirty_pages/);
    expect(f?.limits).toMatch(/cgroup v2/);
    // Held at the background threshold, below the freerun point: nobody was paced.
    expect(findingsOf({ probe: "dd", params: { mode: "write" }, result: ddResult("telemetry-dd-write-dirty-ratio-2") }, stored("telemetry-dd-write-dirty-ratio-2"))).toEqual([]);
  });

  it("the profile's rotational flag decides how %util ≈ 100 reads", () => {
    const input = (rotational: boolean) => ({ probe: "fio", params: {}, result: null, profile: { target: { path: "/mnt/shm", device: "loop1", rotational } } });
    const samples = stored("telemetry-fio-seqread-shm-loop-qd2");
    expect(findingsOf(input(false), samples)[0]?.summary).toMatch(/device loop1 reports itself as non-rotational/);
    expect(findingsOf(input(true), samples)[0]?.summary).toMatch(/device loop1 reports itself as rotational/);
  });

  it("the profile's vm.zone_reclaim_mode decides between zone reclaim and its other causes", () => {
    const samples = stored("telemetry-idle").map((p, i) => ({ ...p, paging: { ...p.paging, pgscand: i >= 2 ? 150_000 : 0 }, numa: { "0": 60_000, "1": 9_000_000 } }));
    const input = (mode: string) => ({ probe: "dd", params: {}, result: null, profile: { sysctls: { "vm.zone_reclaim_mode": mode }, numa: { nodes: 2 } } });
    expect(rules(findingsOf(input("1"), samples))).toEqual(["zone-reclaim"]);
    expect(rules(findingsOf(input("0"), samples))).toEqual(["numa-local-reclaim"]);
  });

  it("a sar run without telemetry is read from its own samples (launched, imported or history)", () => {
    const parsed = parseOutput("sar", fs.readFileSync(path.join(fixtures, "sar-B-direct-reclaim.txt"), "utf8"));
    if (!parsed.ok) throw new Error(parsed.error);
    expect(rules(findingsOf({ probe: "sar", params: {}, result: parsed.result }, []))).toEqual(["direct-reclaim"]);
  });

  it("an idle machine and a run with nothing to read are silent", () => {
    expect(findingsOf({ probe: "dd", params: {}, result: null }, stored("telemetry-idle"))).toEqual([]);
    expect(findingsOf({ probe: "dd", params: {}, result: null }, [])).toEqual([]);
  });
});

describe("telemetry in the CSV export", () => {
  it("one row per field and second, in the documented units", () => {
    const samples = stored("telemetry-fio-seqwrite-qd64-loop").slice(0, 2);
    const lines = telemetryCsvRows("run A", samples).trimEnd().split("\r\n");
    const util = lines.filter((l) => l.includes(",telemetry.device.util,"));
    expect(util).toHaveLength(2);
    expect(util[0]).toMatch(new RegExp(`^run A,telemetry\\.device\\.util,t=${samples[0]!.t};device=${samples[0]!.device!.name},${samples[0]!.device!.util},%$`));
    expect(lines.some((l) => /^run A,telemetry\.cpu\.iowait,t=[\d.]+,[\d.]+,% of all CPUs$/.test(l))).toBe(true);
  });
});
