import { readdir, readFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { readDiskFacts } from "./block-device";
import { toolStdout } from "./exec-tool";
import { parseOsRelease, type OsRelease } from "./install-commands";
import { parseFindmntJson } from "./parse-findmnt";
import { parseBracketedChoice, parseDirtyableBytes, parseMeminfoBytes, parseMemTotalBytes, parseOsReleasePrettyName, parseVmstatPagesBytes } from "./parse-kernel-files";
import { parseLsblkJson } from "./parse-lsblk";
import { parseLscpuJson } from "./parse-lscpu";
import { collectTarget } from "./target";
import type { BlockDeviceInfo, HostProfile, RunProfileSnapshot, TargetProfile } from "./types";

/** Kernel knobs that decide how writes reach the disk and how memory is reclaimed. */
export const SYSCTL_KEYS = [
  "vm.dirty_ratio", "vm.dirty_background_ratio", "vm.dirty_bytes", "vm.dirty_background_bytes",
  "vm.dirty_expire_centisecs", "vm.dirty_writeback_centisecs", "vm.swappiness", "vm.zone_reclaim_mode",
  "vm.min_free_kbytes", "vm.overcommit_memory", "vm.overcommit_ratio", "vm.vfs_cache_pressure",
  "vm.nr_hugepages", "vm.page-cluster",
] as const;

/** Where the collector looks; tests point these at a fake tree and canned tool output. */
export interface ProfileSources {
  procRoot: string;
  sysRoot: string;
  osReleaseFiles: string[];
  run(file: string, args: readonly string[]): Promise<string | null>;
}

export const systemSources: ProfileSources = {
  procRoot: "/proc",
  sysRoot: "/sys",
  osReleaseFiles: ["/etc/os-release", "/usr/lib/os-release"],
  run: (file, args) => toolStdout(file, args),
};

async function readText(file: string): Promise<string | null> {
  try {
    return await readFile(file, "utf8");
  } catch {
    return null;
  }
}

async function readSysctls(procRoot: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const key of SYSCTL_KEYS) {
    const value = await readText(path.join(procRoot, "sys", ...key.split(".")));
    if (value !== null) out[key] = value.trim().replace(/\s+/g, " ");
  }
  return out;
}

/** NUMA nodes from sysfs when lscpu is missing: /sys/devices/system/node/nodeN/cpulist. */
async function numaFromSysfs(sysRoot: string): Promise<HostProfile["numa"]> {
  const dir = path.join(sysRoot, "devices/system/node");
  let names: string[] = [];
  try {
    names = (await readdir(dir)).filter((n) => /^node\d+$/.test(n)).sort();
  } catch {
    return { nodes: 1 };
  }
  const cpusPerNode: Record<string, string> = {};
  for (const n of names) {
    const list = await readText(path.join(dir, n, "cpulist"));
    if (list !== null) cpusPerNode[n.slice(4)] = list.trim();
  }
  return names.length > 0 ? { nodes: names.length, cpusPerNode } : { nodes: 1 };
}

/** Each NUMA node's free memory, which decides whether zone reclaim has another node to spill to. */
async function freeBytesPerNode(sysRoot: string): Promise<Record<string, number>> {
  const dir = path.join(sysRoot, "devices/system/node");
  const names = await readdir(dir).then((n) => n.filter((x) => /^node\d+$/.test(x)).sort(), () => [] as string[]);
  const out: Record<string, number> = {};
  for (const n of names) {
    const text = await readText(path.join(dir, n, "meminfo"));
    const free = text === null ? null : parseMeminfoBytes(text, "MemFree");
    if (free !== null) out[n.slice(4)] = free;
  }
  return out;
}

async function blockDevices(src: ProfileSources): Promise<BlockDeviceInfo[]> {
  const lsblk = await src.run("lsblk", ["-J", "-b", "-d", "-o", "NAME,MODEL,SIZE,ROTA,TYPE"]);
  let devices = lsblk ? parseLsblkJson(lsblk) : [];
  if (devices.length === 0) {
    // No lsblk (minimal containers): sysfs has the same facts except the type.
    let names: string[] = [];
    try {
      names = (await readdir(path.join(src.sysRoot, "block"))).sort();
    } catch {
      names = [];
    }
    devices = await Promise.all(
      names.map(async (name) => {
        const f = await readDiskFacts(src.sysRoot, name);
        const type = /^loop\d/.test(name) ? "loop" : /^(dm|md)-?\d/.test(name) ? name.slice(0, 2) : "disk";
        return { name, model: f.model, sizeBytes: f.sizeBytes ?? 0, rotational: f.rotational, type };
      }),
    );
  }
  return Promise.all(
    devices.map(async (d) => {
      const f = await readDiskFacts(src.sysRoot, d.name);
      return { ...d, scheduler: f.scheduler, ...(f.hwQueueDepth !== null ? { hwQueueDepth: f.hwQueueDepth } : {}) };
    }),
  );
}

/** The host's hardware, kernel settings and the storage under each allowed directory. */
export async function collectHostProfile(allowedDirs: readonly string[], src: ProfileSources = systemSources): Promise<HostProfile> {
  const [lscpuText, findmntText, meminfo, vmstat, nodeFree, thpEnabled, thpDefrag, sysctls, devices] = await Promise.all([
    src.run("lscpu", ["-J"]),
    src.run("findmnt", ["-J", "-o", "TARGET,SOURCE,FSTYPE,OPTIONS"]),
    readText(path.join(src.procRoot, "meminfo")),
    readText(path.join(src.procRoot, "vmstat")),
    freeBytesPerNode(src.sysRoot),
    readText(path.join(src.sysRoot, "kernel/mm/transparent_hugepage/enabled")),
    readText(path.join(src.sysRoot, "kernel/mm/transparent_hugepage/defrag")),
    readSysctls(src.procRoot),
    blockDevices(src),
  ]);
  let distro: string | null = null;
  let osRelease: OsRelease | null = null;
  for (const file of src.osReleaseFiles) {
    const text = await readText(file);
    distro = text === null ? null : parseOsReleasePrettyName(text);
    osRelease = text === null ? null : parseOsRelease(text);
    if (text !== null) break;
  }
  const cpu = lscpuText ? parseLscpuJson(lscpuText) : null;
  const numa = {
    ...(cpu?.numaNodes != null
      ? { nodes: cpu.numaNodes, ...(Object.keys(cpu.cpusPerNode).length > 0 ? { cpusPerNode: cpu.cpusPerNode } : {}) }
      : await numaFromSysfs(src.sysRoot)),
    ...(Object.keys(nodeFree).length > 0 ? { freeBytesPerNode: nodeFree } : {}),
  };
  const mounts = findmntText ? parseFindmntJson(findmntText) : [];
  const targets = [];
  for (const dir of allowedDirs) targets.push(await collectTarget(dir, { mounts, sysRoot: src.sysRoot }));
  return {
    collectedAt: new Date().toISOString(),
    hostname: os.hostname(),
    kernel: { release: os.release(), version: os.version() },
    distro,
    // ID and ID_LIKE decide the package manager of the host page's install commands.
    os: osRelease ? { id: osRelease.id, idLike: osRelease.idLike, versionId: osRelease.versionId } : null,
    cpu: { model: cpu?.model ?? null, count: cpu?.count ?? os.cpus().length, sockets: cpu?.sockets ?? null },
    // The dirty thresholds the kernel computed (pages of the kernel's page size, 4 KiB on the
    // architectures Probebook runs on) and the dirtyable memory the experiment trials size from.
    memory: {
      totalBytes: (meminfo ? parseMemTotalBytes(meminfo) : null) ?? os.totalmem(),
      dirtyableBytes: meminfo ? parseDirtyableBytes(meminfo) : null,
      dirtyThresholdBytes: vmstat ? parseVmstatPagesBytes(vmstat, "nr_dirty_threshold") : null,
      dirtyBackgroundThresholdBytes: vmstat ? parseVmstatPagesBytes(vmstat, "nr_dirty_background_threshold") : null,
    },
    numa,
    blockDevices: devices,
    targets,
    sysctls,
    thp: {
      enabled: thpEnabled === null ? null : parseBracketedChoice(thpEnabled),
      defrag: thpDefrag === null ? null : parseBracketedChoice(thpDefrag),
    },
  };
}

/** The snapshot stored with a run: the host now, and the run's target directory. */
export async function collectTargetProfile(dir: string, src: ProfileSources = systemSources): Promise<RunProfileSnapshot & { target: TargetProfile }> {
  const host = await collectHostProfile([dir], src);
  const target = host.targets[0];
  if (target === undefined) throw new Error("unreachable: one target was asked for");
  return { ...host, target };
}
