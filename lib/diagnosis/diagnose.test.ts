import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { getProbe, parseOutput } from "../../probes/catalog";
import type { TelemetrySample } from "../../probes/telemetry/types";
import { diagnose } from "./evaluate";
import { RULES } from "./rules";
import { timelineFromTelemetry } from "./timeline";

const here = path.join(import.meta.dirname, "fixtures");
interface Capture {
  command: string;
  stderr: string;
  samples: TelemetrySample[];
}
const capture = (name: string) => JSON.parse(fs.readFileSync(path.join(here, `${name}.json`), "utf8")) as Capture;
const rulesOf = (findings: { rule: string }[]) => findings.map((f) => f.rule).sort();
const healthy = ["telemetry-idle", "telemetry-fio-randwrite-qd32", "telemetry-dd-read-direct"];

/** The probe's own read rate, as the dd parser reads it from the captured summary. */
function ddReadKBs(c: Capture): number {
  const parsed = parseOutput("dd", c.stderr);
  if (!parsed.ok) throw new Error(parsed.error);
  const rate = parsed.result.measurements.find((m) => m.metric === "throughput");
  if (!rate) throw new Error("no throughput in the dd summary");
  // Bytes/s or MB/s depending on the unit the parser gives; normalise to kB/s.
  const factor: Record<string, number> = { "B/s": 1 / 1024, "KiB/s": 1, "kB/s": 1000 / 1024, "MiB/s": 1024, "MB/s": 1e6 / 1024 };
  return rate.value * (factor[rate.unit] ?? Number.NaN);
}

describe("diagnosis on real telemetry", () => {
  it("device bound: a loop device at 100 % with a deep queue", () => {
    const findings = diagnose(timelineFromTelemetry(capture("telemetry-fio-seqwrite-qd64-loop").samples));
    expect(rulesOf(findings)).toEqual(["device-bound"]);
    const f = findings[0];
    expect(f?.evidence.matched).toBeGreaterThanOrEqual(4);
    expect(f?.evidence.samples[0]?.values["device.util"]).toBeGreaterThanOrEqual(95);
    expect(f?.guide.href).toBe("/guides/storage-media-disk-flash-memory#findings");
  });

  it("page cache: dd read 1 GiB at GB/s while the disk read nothing", () => {
    const c = capture("telemetry-dd-read-cached");
    const readKBs = ddReadKBs(c);
    expect(readKBs).toBeGreaterThan(1_000_000);
    const findings = diagnose(timelineFromTelemetry(c.samples, { probeReadKBs: readKBs }));
    expect(rulesOf(findings)).toEqual(["page-cache-reads"]);
  });

  it("a direct read the device served is not called page cache", () => {
    const c = capture("telemetry-dd-read-direct");
    expect(diagnose(timelineFromTelemetry(c.samples, { probeReadKBs: ddReadKBs(c) }))).toEqual([]);
  });

  it("write-back throttling: a 4 GiB buffered write with vm.dirty_ratio 2", () => {
    const findings = diagnose(timelineFromTelemetry(capture("telemetry-dd-write-dirty-ratio-2").samples));
    expect(rulesOf(findings)).toEqual(["writeback-throttling"]);
    expect(findings[0]?.evidence.matched).toBeGreaterThanOrEqual(10);
    expect(findings[0]?.summary).toMatch(/^In \d+ of \d+ samples \(\d+ s to \d+ s\) dirty and write-back pages held/);
  });

  it.each(healthy)("%s: silent", (name) => {
    expect(diagnose(timelineFromTelemetry(capture(name).samples))).toEqual([]);
  });
});

describe("diagnosis on sar", () => {
  it("direct reclaim in a published sar -B history", () => {
    const parsed = parseOutput("sar", fs.readFileSync(path.join(here, "sar-B-direct-reclaim.txt"), "utf8"));
    if (!parsed.ok) throw new Error(parsed.error);
    const findings = diagnose(getProbe("sar").view.timeline!(parsed.result));
    expect(rulesOf(findings)).toEqual(["direct-reclaim"]);
    expect(findings[0]?.evidence).toMatchObject({ matched: 2, total: 3 });
    expect(findings[0]?.evidence.samples.map((s) => s.values["paging.pgscand"])).toEqual([4266.52, 5821.28]);
  });

  it("a healthy sar -B and sar -u -d -r from this machine are silent", () => {
    for (const file of ["sar-B.txt", "sadf-B-d-r-u.json"]) {
      const text = fs.readFileSync(path.join(import.meta.dirname, "../../probes/sar/fixtures", file), "utf8");
      const parsed = parseOutput("sar", text);
      if (!parsed.ok) throw new Error(`${file}: ${parsed.error}`);
      const timeline = getProbe("sar").view.timeline!(parsed.result);
      expect(timeline.points.length).toBeGreaterThan(2);
      expect(diagnose(timeline)).toEqual([]);
    }
  });
});

describe("symptoms this single-node VM cannot show, on a real capture with named fields changed", () => {
  it("zone reclaim: direct scans while another node has gigabytes free", () => {
    const samples = capture("telemetry-idle").samples.map((s, i) => ({
      ...s,
      paging: { ...s.paging, pgscand: i >= 2 ? 150_000 : 0 },
      numaFree: { "0": 60_000, "1": 9_000_000 },
    }));
    const findings = diagnose(timelineFromTelemetry(samples));
    expect(rulesOf(findings)).toEqual(["zone-reclaim"]);
    expect(findings[0]?.guide.slug).toBe("linux-memory-numa-databases");
    // With both nodes short of memory it is plain direct reclaim, not a zone reclaim reading.
    const tight = samples.map((s) => ({ ...s, numaFree: { "0": 60_000, "1": 70_000 } }));
    expect(rulesOf(diagnose(timelineFromTelemetry(tight)))).toEqual(["direct-reclaim"]);
  });

  it("noisy neighbour: sustained steal", () => {
    const samples = capture("telemetry-idle").samples.map((s) => ({ ...s, cpu: { ...s.cpu, steal: 22, idle: s.cpu.idle - 22 } }));
    expect(rulesOf(diagnose(timelineFromTelemetry(samples)))).toEqual(["cpu-steal"]);
  });
});

describe("the rules themselves", () => {
  it("every rule links to a guide that exists and to one of its sections", () => {
    for (const rule of RULES) {
      const file = path.join(import.meta.dirname, "../../content/guides", `${rule.guide.slug}.mdx`);
      expect(fs.existsSync(file), rule.id).toBe(true);
      expect(fs.readFileSync(file, "utf8"), rule.id).toContain(`## ${rule.guide.section}`);
    }
  });
});
