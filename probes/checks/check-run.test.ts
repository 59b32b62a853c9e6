// checkRun on real captures: each capture's telemetry with the output of the same command where
// the capture has one (dd), otherwise a real output of the probe beside a real capture whose
// device activity is the point of the case (named in each test).
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseOutput } from "../catalog";
import type { NormalisedResult } from "../core/types";
import type { TelemetrySample } from "../telemetry/types";
import { checkRun, type CheckFacts } from "./index";

const dir = path.join(__dirname, "fixtures");
const capture = (name: string) =>
  JSON.parse(fs.readFileSync(path.join(dir, `${name}.json`), "utf8")) as { stderr: string; samples: TelemetrySample[] };
function parsed(probe: string, output: string): NormalisedResult {
  const p = parseOutput(probe as "dd", output);
  if (!p.ok) throw new Error(p.error);
  return p.result;
}
const ext4: CheckFacts = { fsType: "ext4", memTotalBytes: 24 * 2 ** 30, cpuCount: 2 };
const dd = (params: Record<string, unknown>) => ({ target: "/var/tmp", sizeMiB: 2048, blockSizeKiB: 1024, ...params });
const codes = (out: { flags: { code: string }[] }) => out.flags.map((f) => f.code);
const flag = (out: { flags: { code: string; evidence: string }[] }, code: string) => out.flags.find((f) => f.code === code);

describe("dd", () => {
  it("a buffered read of a cached file is served from the page cache, with the figures", () => {
    const c = capture("telemetry-dd-read-buffered-cached");
    const out = checkRun({ probe: "dd", params: dd({ mode: "read", direct: false, blockSizeKiB: 4 }), result: parsed("dd", c.stderr), durationMs: 1500, samples: c.samples, facts: ext4 });
    expect(out.checkedAgainstTelemetry).toBe(true);
    const f = flag(out, "cache-served-read");
    expect(f?.evidence).toBe("the device read 0.2 MiB while dd read 2,048 MiB without iflag=direct: the data came from memory, so the rate is the page cache's, not the device's.");
    expect(out.flags.find((x) => x.code === "cache-served-read")?.guide?.href).toBe("/guides/ext2-ext3-ext4-iozone#caveats");
  });

  it("a direct read the device served is not cache-served, nor is a read on tmpfs", () => {
    const direct = capture("telemetry-dd-read-direct");
    const a = checkRun({ probe: "dd", params: dd({ mode: "read", direct: true }), result: parsed("dd", direct.stderr), durationMs: 2200, samples: direct.samples, facts: ext4 });
    expect(codes(a)).not.toContain("cache-served-read");
    expect(codes(a)).not.toContain("device-busy-elsewhere");
    const shm = capture("telemetry-dd-read-tmpfs");
    const b = checkRun({ probe: "dd", params: dd({ mode: "read", direct: false, blockSizeKiB: 4 }), result: parsed("dd", shm.stderr), durationMs: 1500, samples: shm.samples, facts: { ...ext4, fsType: "tmpfs" } });
    expect(codes(b)).not.toContain("cache-served-read");
  });

  it("a direct write whose bytes the device wrote passes the device checks; 1.4 s and 2 samples are too short", () => {
    const c = capture("telemetry-dd-write-direct");
    const out = checkRun({ probe: "dd", params: dd({ mode: "write", direct: true, fdatasync: true }), result: parsed("dd", c.stderr), durationMs: 1500, samples: c.samples, facts: ext4 });
    expect(codes(out)).not.toContain("write-not-on-device");
    expect(codes(out)).not.toContain("device-busy-elsewhere");
    expect(flag(out, "too-short")?.evidence).toMatch(/^dd timed 1\.44 s of work, less than the 5 s/);
    expect(flag(out, "too-few-samples")?.evidence).toMatch(/recorded 2 telemetry samples/);
  });

  it("a 4 GiB synced write over 34 s with its bytes on the device is none of too short, few samples or not on device", () => {
    const c = capture("telemetry-dd-write-dirty-ratio-2");
    const out = checkRun({ probe: "dd", params: dd({ mode: "write", sizeMiB: 4096, direct: false, fdatasync: true }), result: parsed("dd", c.stderr), durationMs: 34_500, samples: c.samples, facts: ext4 });
    expect(codes(out)).not.toContain("too-short");
    expect(codes(out)).not.toContain("too-few-samples");
    expect(codes(out)).not.toContain("write-not-on-device");
  });

  it("a direct write the device did not see: dd's 2 GiB against the idle capture's few MiB", () => {
    const out = checkRun({ probe: "dd", params: dd({ mode: "write", direct: true, fdatasync: false }), result: parsed("dd", capture("telemetry-dd-write-direct").stderr), durationMs: 5000, samples: capture("telemetry-idle").samples, facts: ext4 });
    expect(flag(out, "write-not-on-device")?.evidence).toMatch(/^the device wrote 4\.2 MiB while dd wrote 2,048 MiB with oflag=direct: the figure is the cache's/);
    // A write through the cache without a sync is not claimed to reach the device.
    const nosync = checkRun({ probe: "dd", params: dd({ mode: "write", direct: false, fdatasync: false }), result: parsed("dd", capture("telemetry-dd-write-direct").stderr), durationMs: 5000, samples: capture("telemetry-idle").samples, facts: ext4 });
    expect(codes(nosync)).not.toContain("write-not-on-device");
  });

  it("the CPUs busy with other work while single-threaded dd ran (the capture's other CPU was at 100 %)", () => {
    const c = capture("telemetry-dd-read-direct");
    const out = checkRun({ probe: "dd", params: dd({ mode: "read", direct: true }), result: parsed("dd", c.stderr), durationMs: 2200, samples: c.samples, facts: ext4 });
    expect(flag(out, "cpu-busy-elsewhere")?.evidence).toMatch(/^the CPUs were 100 % busy on average .*3 of 3 samples at or above 95 %.*dd with 1 thread can use at most 50 % of this host's 2 CPUs/);
    // The same capture with the CPUs' user time halved (only that field changed): no flag.
    const calm = c.samples.map((s) => ({ ...s, cpu: { ...s.cpu, usr: s.cpu.usr / 2, idle: s.cpu.idle + s.cpu.usr / 2 } }));
    expect(codes(checkRun({ probe: "dd", params: dd({ mode: "read", direct: true }), result: parsed("dd", c.stderr), durationMs: 2200, samples: calm, facts: ext4 }))).not.toContain("cpu-busy-elsewhere");
    // A buffered write on the same busy capture: the other CPU writes its pages back (the
    // flusher), so on a 2-CPU host the probe may use both and is not judged.
    expect(codes(checkRun({ probe: "dd", params: dd({ mode: "write", direct: false, fdatasync: false }), result: parsed("dd", c.stderr), durationMs: 2200, samples: c.samples, facts: ext4 }))).not.toContain("cpu-busy-elsewhere");
    // A host whose CPU count is unknown is never judged.
    expect(codes(checkRun({ probe: "dd", params: dd({ mode: "read", direct: true }), result: parsed("dd", c.stderr), durationMs: 2200, samples: c.samples, facts: { ...ext4, cpuCount: null } }))).not.toContain("cpu-busy-elsewhere");
  });

  it("without telemetry only the duration is judged", () => {
    const out = checkRun({ probe: "dd", params: dd({ mode: "write" }), result: parsed("dd", capture("telemetry-dd-write-direct").stderr), durationMs: 1500, samples: [], facts: ext4 });
    expect(out.checkedAgainstTelemetry).toBe(false);
    expect(codes(out)).toEqual(["too-short"]);
  });
});

describe("fio", () => {
  const fio = { target: "/var/tmp", rw: "write", blockSizeKiB: 1024, sizeMiB: 64, ioengine: "psync", iodepth: 1, numjobs: 1, direct: true };
  const result = () => parsed("fio", fs.readFileSync(path.join(dir, "fio-3.33-seqwrite.json"), "utf8"));

  it("keeps io_bytes and runtime, and a direct 64 MiB write the idle device never saw is flagged", () => {
    expect(result().measurements.find((m) => m.metric === "io_bytes" && m.dims.direction === "write")?.value).toBe(67108864);
    const out = checkRun({ probe: "fio", params: fio, result: result(), durationMs: 5000, samples: capture("telemetry-idle").samples, facts: ext4 });
    expect(flag(out, "write-not-on-device")?.evidence).toMatch(/while fio wrote 64 MiB with direct=1/);
    expect(flag(out, "too-short")?.evidence).toMatch(/^fio timed 0\.06 s of work/);
  });

  it("device busy elsewhere: 620 MiB of random writes on the device against fio's 64 MiB", () => {
    const out = checkRun({ probe: "fio", params: fio, result: result(), durationMs: 7000, samples: capture("telemetry-fio-randwrite-qd32").samples, facts: ext4 });
    expect(flag(out, "device-busy-elsewhere")?.evidence).toMatch(/^the device wrote 6\d\d MiB while fio wrote 64 MiB: another workload/);
    expect(codes(out)).not.toContain("write-not-on-device");
  });

  it("a lab volume's device serves the run alone: what it moved beyond the probe's bytes is the file system's own work", () => {
    const out = checkRun({ probe: "fio", params: fio, result: result(), durationMs: 7000, samples: capture("telemetry-fio-randwrite-qd32").samples, facts: { ...ext4, exclusiveDevice: true } });
    expect(codes(out)).not.toContain("device-busy-elsewhere");
    // The other checks still hold the probe to what the device did.
    expect(codes(out)).toContain("too-short");
  });
});

describe("iozone and fsmeta", () => {
  it("a buffered 64 MiB auto run reads gigabytes the device never read", () => {
    const r = parsed("iozone", fs.readFileSync(path.join(dir, "iozone-auto-64m.txt"), "utf8"));
    const params = { target: "/var/tmp", mode: "auto", fileSizeMiB: 64, minRecordKiB: 4, maxRecordKiB: 256, tests: [0, 1, 2], direct: false };
    const out = checkRun({ probe: "iozone", params, result: r, durationMs: 6000, samples: capture("telemetry-idle").samples, facts: ext4 });
    expect(flag(out, "cache-served-read")?.evidence).toMatch(/^the device read 0.07 MiB while iozone read 1,344 MiB through the page cache \(no -I\)/);
    // Without -I its writes are not claimed to reach the device.
    expect(codes(out)).not.toContain("write-not-on-device");
  });

  it("fsmeta has no byte counts: only its duration and samples are judged", () => {
    const out = checkRun({ probe: "fsmeta", params: { target: "/var/tmp", files: 1000, dirs: 1 }, result: { tool: "fsmeta", toolVersion: null, measurements: [], warnings: [] }, durationMs: 2000, samples: capture("telemetry-idle").samples, facts: { ...ext4, cpuCount: null } });
    expect(codes(out)).toEqual(["too-short"]);
    expect(flag(out, "too-short")?.evidence).toMatch(/^the run lasted 2 s/);
  });

  it("sar, an observer, is not judged", () => {
    expect(checkRun({ probe: "sar", params: {}, result: { tool: "sar", toolVersion: null, measurements: [], warnings: [] }, durationMs: 1000, samples: [], facts: ext4 }).flags).toEqual([]);
  });
});
