import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { getGuide } from "../../content/load";
import { getProbe, parseOutput } from "../../probes/catalog";
import type { TelemetrySample } from "../../probes/telemetry/types";
import { UNKNOWN_CONTEXT, contextFromProfile, type DiagnosisContext } from "./context";
import { diagnose, SUSTAINED_SAMPLES } from "./evaluate";
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
const ctx = (over: Partial<DiagnosisContext>): DiagnosisContext => ({ ...UNKNOWN_CONTEXT, ...over });
const run = (name: string, c: DiagnosisContext = UNKNOWN_CONTEXT) => diagnose(timelineFromTelemetry(capture(name).samples), c);
const healthy = ["telemetry-idle", "telemetry-fio-randwrite-qd32", "telemetry-dd-read-direct"];

/** The probe's own read rate, as the dd parser reads it from the captured summary. */
function ddReadKBs(c: Capture): number {
  const parsed = parseOutput("dd", c.stderr);
  if (!parsed.ok) throw new Error(parsed.error);
  const rate = parsed.result.measurements.find((m) => m.metric === "throughput");
  if (!rate) throw new Error("no throughput in the dd summary");
  const factor: Record<string, number> = { "B/s": 1 / 1024, "KiB/s": 1, "kB/s": 1000 / 1024, "MiB/s": 1024, "MB/s": 1e6 / 1024 };
  return rate.value * (factor[rate.unit] ?? Number.NaN);
}

const meanOf = (c: Capture, f: (s: TelemetrySample) => number) => c.samples.reduce((a, s) => a + f(s), 0) / c.samples.length;
/** A claim that the device was at its limit, in any wording the rule could use. */
const CLAIMS_LIMIT = /more parallelism will not help|measured the device at its limit|saturated/;

describe("device-bound: %util is time busy, not capacity", () => {
  it("a tmpfs-backed loop device (non-rotational) at %util ≈ 100: noted, no limit claimed", () => {
    const findings = run("telemetry-fio-seqread-shm-loop-qd2", ctx({ rotational: false, device: "loop1" }));
    expect(rulesOf(findings)).toEqual(["device-bound"]);
    const f = findings[0]!;
    expect(f.severity).toBe("info");
    expect(f.evidence.samples[0]!.values["device.util"]).toBeGreaterThanOrEqual(95);
    expect(f.evidence.samples[0]!.values["device.aquSz"]).toBeDefined();
    expect(f.summary).toMatch(/non-rotational/);
    expect(f.summary).toMatch(/says nothing about saturation/);
    expect(f.summary).not.toMatch(CLAIMS_LIMIT);
    expect(f.next?.href).toBe("/runs/new?probe=fio&preset=rand-read-4k-qd32");
  });

  it("the same loop device at QD1 and QD32: %util says nothing about the threefold IOPS", () => {
    const qd1 = capture("telemetry-fio-randread-shm-loop-qd1");
    const qd32 = capture("telemetry-fio-randread-shm-loop-qd32");
    const iops = (c: Capture) => meanOf(c, (s) => s.device!.rs);
    // Captured on a loaded 2-vCPU VM: the loop worker shares the CPUs, so neither run reaches 95 %.
    expect(iops(qd32) / iops(qd1)).toBeGreaterThan(2);
    expect(meanOf(qd32, (s) => s.device!.util) - meanOf(qd1, (s) => s.device!.util)).toBeLessThan(25);
    expect(run("telemetry-fio-randread-shm-loop-qd1", ctx({ rotational: false }))).toEqual([]);
    expect(run("telemetry-fio-randread-shm-loop-qd32", ctx({ rotational: false }))).toEqual([]);
  });

  it("a rotational flag reads as a single disk's limit, and the text says the flag can lie", () => {
    const findings = run("telemetry-fio-seqwrite-qd64-loop", ctx({ rotational: true, device: "loop0" }));
    expect(rulesOf(findings)).toEqual(["device-bound"]);
    expect(findings[0]!.summary).toMatch(/reports itself as rotational/);
    expect(findings[0]!.summary).toMatch(/Virtual machines report virtio disks as rotational/);
    expect(findings[0]!.limits).toMatch(/virtio disks in VMs report 1/);
  });

  it("without the flag both readings are given", () => {
    const [f] = run("telemetry-fio-seqread-shm-loop-qd32");
    expect(f?.summary).toMatch(/does not record whether the device is rotational/);
    expect(f?.summary).not.toMatch(CLAIMS_LIMIT);
  });

  it("the profile's target flag reaches the rule", () => {
    const profile = { sysctls: {}, target: { path: "/mnt/x", device: "loop1", rotational: false } };
    expect(contextFromProfile(profile)).toMatchObject({ rotational: false, device: "loop1" });
    // Older snapshots: the host's device list.
    expect(contextFromProfile({ blockDevices: [{ name: "vda", rotational: true }], target: { path: "/", device: "vda" } }).rotational).toBe(true);
  });
});

describe("writeback-throttling: pacing starts at the freerun point, not the background threshold", () => {
  it("fires on a writer above the freerun point of a slow loop device (vm.dirty_bytes 64 MiB, background 16 MiB)", () => {
    const findings = run("telemetry-dd-write-slow-loop-dirty-bytes-64m", ctx({ dirty: { ratio: 0, backgroundRatio: 0, bytes: 67108864, backgroundBytes: 16777216 } }));
    expect(rulesOf(findings)).toContain("writeback-throttling");
    const f = findings.find((x) => x.rule === "writeback-throttling")!;
    expect(f.severity).toBe("warning");
    expect(f.evidence.matched).toBeGreaterThanOrEqual(SUSTAINED_SAMPLES);
    for (const s of f.evidence.samples) {
      // What the text says is what the evidence shows: above (background + limit) / 2.
      expect(s.values["writeback.pendingKb"]).toBeGreaterThan(((s.values["writeback.backgroundLimitKb"] ?? 0) + (s.values["writeback.limitKb"] ?? 0)) / 2);
      expect(s.values["writeback.freerunKb"]).toBe(40960);
    }
    expect(f.summary).toMatch(/writers were paced between the freerun point and the dirty limit/);
    expect(f.summary).toMatch(/vm\.dirty_bytes 67108864, vm\.dirty_background_bytes 16777216/);
    expect(f.summary).not.toMatch(/held at the kernel's dirty threshold|the run measured write-back/);
  });

  it.each([
    // Pending held at the background threshold while write-back kept up: nobody was paced.
    "telemetry-dd-write-dirty-ratio-2",
    // Four writers with vm.dirty_bytes 64 MiB on the virtio disk: write-back kept up with all of them.
    "telemetry-dd-write-4x-dirty-bytes-64m",
  ])("%s: writers below the freerun point stay silent although dirtied ≈ written", (name) => {
    const c = capture(name);
    const atBackground = c.samples.filter((s) => s.memory.dirty + s.memory.writeback >= 0.8 * s.writeback.backgroundLimitKb);
    expect(atBackground.length).toBeGreaterThanOrEqual(3); // the old 0.8 × background rule fired here
    expect(rulesOf(run(name))).not.toContain("writeback-throttling");
  });
});

describe("page-cache-reads", () => {
  it("fires: dd read 1 GiB at GB/s while the disk read nothing", () => {
    const c = capture("telemetry-dd-read-cached");
    const readKBs = ddReadKBs(c);
    expect(readKBs).toBeGreaterThan(1_000_000);
    const findings = diagnose(timelineFromTelemetry(c.samples, { probeReadKBs: readKBs }));
    expect(rulesOf(findings)).toEqual(["page-cache-reads"]);
    // Two samples only: noted, not judged.
    expect(findings[0]?.severity).toBe("info");
  });

  it("silent: a direct read the device served", () => {
    const c = capture("telemetry-dd-read-direct");
    expect(diagnose(timelineFromTelemetry(c.samples, { probeReadKBs: ddReadKBs(c) }))).toEqual([]);
  });
});

describe("healthy captures", () => {
  it.each(healthy)("%s: silent", (name) => {
    expect(run(name)).toEqual([]);
  });
});

describe("direct-reclaim on sar", () => {
  it("a published sar -B history: two one-minute samples of direct reclaim, noted as info", () => {
    const parsed = parseOutput("sar", fs.readFileSync(path.join(here, "sar-B-direct-reclaim.txt"), "utf8"));
    if (!parsed.ok) throw new Error(parsed.error);
    const findings = diagnose(getProbe("sar").view.timeline!(parsed.result));
    expect(rulesOf(findings)).toEqual(["direct-reclaim"]);
    expect(findings[0]?.evidence).toMatchObject({ matched: 2, total: 3 });
    expect(findings[0]?.severity).toBe("info");
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

// This single-node VM cannot make a NUMA node run short while another has memory, nor steal CPU
// from itself: these take a real capture and change only the fields named in the test.
describe("symptoms this single-node VM cannot show, on a real capture with named fields changed", () => {
  const numa = (from: number) =>
    capture("telemetry-idle").samples.map((s, i) => ({ ...s, paging: { ...s.paging, pgscand: i >= from ? 150_000 : 0 }, numaFree: { "0": 60_000, "1": 9_000_000 } }));

  it("zone reclaim is named only when the profile says vm.zone_reclaim_mode is on", () => {
    const findings = diagnose(timelineFromTelemetry(numa(2)), ctx({ zoneReclaimMode: 1, numaNodes: 2 }));
    expect(rulesOf(findings)).toEqual(["zone-reclaim"]);
    expect(findings[0]?.severity).toBe("critical");
    expect(findings[0]?.summary).toMatch(/vm\.zone_reclaim_mode = 1/);
  });

  it("with vm.zone_reclaim_mode 0 the other causes are named and zone reclaim is not", () => {
    const findings = diagnose(timelineFromTelemetry(numa(2)), ctx({ zoneReclaimMode: 0, numaNodes: 2 }));
    expect(rulesOf(findings)).toEqual(["numa-local-reclaim"]);
    expect(findings[0]?.summary).toMatch(/is 0 on this host, so this is not zone reclaim/);
    expect(findings[0]?.summary).toMatch(/numactl --membind/);
    expect(findings[0]?.summary).toMatch(/high-order allocations/);
    // Unknown mode: says it was not recorded rather than guessing.
    expect(diagnose(timelineFromTelemetry(numa(2)))[0]?.summary).toMatch(/does not record vm\.zone_reclaim_mode/);
  });

  it("one sample is noted (info), not judged critical", () => {
    const one = numa(5).map((s, i) => (i === 5 ? s : { ...s, paging: { ...s.paging, pgscand: 0 } }));
    expect(one.filter((s) => s.paging.pgscand > 0)).toHaveLength(1);
    const findings = diagnose(timelineFromTelemetry(one), ctx({ zoneReclaimMode: 1 }));
    expect(findings.map((f) => [f.rule, f.severity])).toEqual([["zone-reclaim", "info"]]);
  });

  it("with both nodes short of memory it is plain direct reclaim", () => {
    const tight = numa(2).map((s) => ({ ...s, numaFree: { "0": 60_000, "1": 70_000 } }));
    expect(rulesOf(diagnose(timelineFromTelemetry(tight), ctx({ zoneReclaimMode: 1 })))).toEqual(["direct-reclaim"]);
  });

  it("noisy neighbour: sustained steal fires, a host without steal stays silent", () => {
    const samples = capture("telemetry-idle").samples.map((s) => ({ ...s, cpu: { ...s.cpu, steal: 22, idle: s.cpu.idle - 22 } }));
    const findings = diagnose(timelineFromTelemetry(samples));
    expect(rulesOf(findings)).toEqual(["cpu-steal"]);
    expect(findings[0]?.guide).toBeNull();
    expect(findings[0]?.doc?.href).toMatch(/proc_stat\.5/);
    expect(run("telemetry-idle").some((f) => f.rule === "cpu-steal")).toBe(false);
  });
});

/** What each rule's cited section must talk about, or the citation is wrong. */
const SUBJECT: Record<string, RegExp> = {
  "zone-reclaim": /zone reclaim|zone_reclaim_mode/i,
  "numa-local-reclaim": /zone_reclaim_mode|numactl|NUMA/i,
  "direct-reclaim": /direct reclaim|pgscand/i,
  "writeback-throttling": /dirty_ratio|write-back/i,
  "page-cache-reads": /cache/i,
  "device-bound": /%util|utili[sz]ation|queue/i,
};

/** The text under "## <heading>" up to the next "## ". */
function sectionText(slug: string, heading: string): string | null {
  const body = getGuide(slug)?.body;
  if (!body) return null;
  const start = body.indexOf(`\n## ${heading}\n`);
  if (start < 0) return null;
  const rest = body.slice(start + heading.length + 5);
  const end = rest.search(/\n## /);
  return end < 0 ? rest : rest.slice(0, end);
}

describe("the rules themselves", () => {
  it.each(RULES.map((r) => [r.id, r] as const))("%s: cites a section that discusses its subject, or an external document", (id, rule) => {
    if ("href" in rule.guide) {
      // No guide discusses it: none of them may mention the subject then, or it should be cited.
      expect(rule.guide.href).toMatch(/^https:\/\//);
      expect(rule.guide.title.length).toBeGreaterThan(10);
      return;
    }
    const text = sectionText(rule.guide.slug, rule.guide.section);
    expect(text, `${id}: ${rule.guide.slug} ## ${rule.guide.section}`).not.toBeNull();
    expect(SUBJECT[id], `${id} needs a subject pattern`).toBeDefined();
    expect(text).toMatch(SUBJECT[id]!);
  });

  it("no guide discusses CPU steal, so cpu-steal links a document instead", () => {
    for (const file of fs.readdirSync(path.join(import.meta.dirname, "../../content/guides"))) {
      const body = getGuide(file.replace(/\.mdx$/, ""))?.body ?? "";
      expect(body, file).not.toMatch(/%steal|steal time|hypervisor/i);
    }
  });

  it("every rule states its mechanism and limits, and a judged finding needs sustained evidence", () => {
    for (const rule of RULES) {
      expect(rule.mechanism.length, rule.id).toBeGreaterThan(80);
      expect(rule.limits.length, rule.id).toBeGreaterThan(80);
    }
    // A warning/critical rule with fewer matches than SUSTAINED_SAMPLES reports info (tested above).
    expect(SUSTAINED_SAMPLES).toBeGreaterThanOrEqual(3);
  });
});
