// Builders for CompareRuns in tests.
import fs from "node:fs";
import path from "node:path";
import { parseOutput } from "../../probes/catalog";
import type { NormalisedResult, Tool } from "../../probes/core/types";
import type { CompareRun } from "./types";

export function fixtureResult(probe: Tool, file: string): NormalisedResult {
  const r = parseOutput(probe, fs.readFileSync(path.join(__dirname, "../../probes", probe, "fixtures", file), "utf8"));
  if (!r.ok) throw new Error(`${file}: ${r.error}`);
  return r.result;
}

export function profile(over: { fsType?: string; medium?: string; device?: string | null; kernel?: string; mountOptions?: string[]; sysctls?: Record<string, string>; scheduler?: string } = {}) {
  const device = over.device === undefined ? "vda" : over.device;
  return {
    hostname: "db1",
    kernel: { release: over.kernel ?? "6.1.0-18-amd64", version: "#1 SMP" },
    distro: "Debian GNU/Linux 12 (bookworm)",
    cpu: { model: "AMD EPYC", count: 2, sockets: 1 },
    memory: { totalBytes: 25276502016 },
    numa: { nodes: 1 },
    sysctls: { "vm.dirty_ratio": "20", "vm.swappiness": "60", ...over.sysctls },
    thp: { enabled: "madvise", defrag: "madvise" },
    blockDevices: device ? [{ name: device, model: null, sizeBytes: 1, rotational: true, type: "disk", scheduler: over.scheduler ?? "mq-deadline" }] : [],
    target: {
      path: "/srv/probebook",
      fsType: over.fsType ?? "ext4",
      source: "/dev/vda1",
      mountPoint: "/",
      mountOptions: over.mountOptions ?? ["rw", "relatime"],
      device,
      rotational: true,
      model: null,
      medium: over.medium ?? "disk",
      totalBytes: 1,
    },
  };
}

let n = 0;

export function compareRun(over: Partial<CompareRun> = {}): CompareRun {
  n++;
  return {
    id: `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`,
    label: `run ${n}`,
    probe: "dd",
    origin: "AGENT",
    status: "SUCCEEDED",
    hostName: "db1",
    hostKey: "host:1",
    createdAt: "2026-11-21T10:00:00.000Z",
    repeatGroup: null,
    params: { target: "/srv/probebook", sizeMiB: 256, mode: "write", blockSizeKiB: 1024, direct: true, fdatasync: true },
    fsType: "ext4",
    medium: "disk",
    profile: profile(),
    result: { tool: "dd", toolVersion: null, measurements: [{ metric: "throughput", value: 200e6, unit: "B/s", dims: {} }], warnings: [] },
    ...over,
  };
}

export function ddResult(bytesPerSecond: number): NormalisedResult {
  return {
    tool: "dd",
    toolVersion: null,
    measurements: [
      { metric: "bytes", value: 268435456, unit: "B", dims: {} },
      { metric: "seconds", value: 268435456 / bytesPerSecond, unit: "s", dims: {} },
      { metric: "throughput", value: bytesPerSecond, unit: "B/s", dims: {} },
    ],
    warnings: [],
  };
}
