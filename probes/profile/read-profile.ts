// The one reader of stored host profiles (Host.profile, a run's profile snapshot). They come
// from agents of any version on any distribution, from imports and from the guides' reference
// runs, so every field is checked on its own: a malformed part reads as null or absent and never
// hides the good parts next to it, and nothing here throws.
import type { BlockDeviceInfo, HostProfile, Medium, RunProfileSnapshot, SnapshotTarget, TargetProfile } from "./types";

type Obj = Record<string, unknown>;

const obj = (v: unknown): Obj | null => (v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Obj) : null);
const str = (v: unknown): string | null => (typeof v === "string" ? v : null);
const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);
const bool = (v: unknown): boolean | null => (typeof v === "boolean" ? v : null);
const count = (v: unknown): number | null => (Number.isSafeInteger(v) && (v as number) >= 0 ? (v as number) : null);
/** sysctl and sysfs values are text, but hand-written or older profiles carry numbers and booleans. */
const scalar = (v: unknown): string | null => (typeof v === "string" ? v : num(v) !== null || typeof v === "boolean" ? String(v) : null);

const MEDIA: readonly Medium[] = ["memory", "ssd", "disk", "unknown"];
const medium = (v: unknown): Medium | null => (MEDIA.includes(v as Medium) ? (v as Medium) : null);

function stringRecord(v: unknown, read: (x: unknown) => string | null): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(obj(v) ?? {})) {
    const value = read(x);
    if (value !== null) out[k] = value;
  }
  return out;
}

/** Mount options as findmnt's JSON gives them, or as /proc/mounts does ("rw,noatime"). */
function mountOptions(v: unknown): string[] {
  const list = typeof v === "string" ? v.split(",") : Array.isArray(v) ? v.filter((o): o is string => typeof o === "string") : [];
  return list.map((o) => o.trim()).filter(Boolean);
}

function readTarget(t: Obj): SnapshotTarget {
  return {
    path: str(t.path) || null,
    fsType: str(t.fsType),
    source: str(t.source),
    mountPoint: str(t.mountPoint),
    mountOptions: mountOptions(t.mountOptions),
    device: str(t.device),
    rotational: bool(t.rotational),
    model: str(t.model),
    medium: medium(t.medium),
    totalBytes: num(t.totalBytes),
    freeBytes: num(t.freeBytes),
  };
}

function readBlockDevice(d: Obj): BlockDeviceInfo | null {
  const name = str(d.name);
  if (!name) return null;
  // Only agents that read it report hwQueueDepth; older profiles keep their shape.
  const hwQueueDepth = num(d.hwQueueDepth);
  return { name, model: str(d.model), sizeBytes: num(d.sizeBytes), rotational: bool(d.rotational), type: str(d.type), scheduler: str(d.scheduler), ...(hwQueueDepth !== null ? { hwQueueDepth } : {}) };
}

function readOs(v: unknown): HostProfile["os"] {
  const o = obj(v);
  const id = str(o?.id);
  if (!o || !id) return null;
  const idLike = Array.isArray(o.idLike) ? o.idLike.filter((x): x is string => typeof x === "string") : [];
  return { id, idLike, versionId: str(o.versionId) };
}

/** Host.profile as a HostProfile: unknown or malformed parts read as null, {} or []. */
export function readHostProfile(json: unknown): HostProfile {
  const p = obj(json) ?? {};
  const kernel = obj(p.kernel) ?? {};
  const cpu = obj(p.cpu) ?? {};
  const numa = obj(p.numa) ?? {};
  const thp = obj(p.thp) ?? {};
  const cpusPerNode = stringRecord(numa.cpusPerNode, str);
  const freeBytesPerNode: Record<string, number> = {};
  for (const [k, v] of Object.entries(obj(numa.freeBytesPerNode) ?? {})) if (count(v) !== null) freeBytesPerNode[k] = v as number;
  const memory = obj(p.memory) ?? {};
  const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.map(obj).filter((x): x is Obj => x !== null) : []);
  return {
    collectedAt: str(p.collectedAt),
    hostname: str(p.hostname),
    kernel: { release: str(kernel.release), version: str(kernel.version) },
    distro: str(p.distro),
    os: readOs(p.os),
    cpu: { model: str(cpu.model), count: num(cpu.count), sockets: num(cpu.sockets) },
    memory: {
      totalBytes: num(memory.totalBytes),
      dirtyableBytes: count(memory.dirtyableBytes),
      dirtyThresholdBytes: count(memory.dirtyThresholdBytes),
      dirtyBackgroundThresholdBytes: count(memory.dirtyBackgroundThresholdBytes),
    },
    numa: {
      nodes: count(numa.nodes),
      ...(Object.keys(cpusPerNode).length > 0 ? { cpusPerNode } : {}),
      ...(Object.keys(freeBytesPerNode).length > 0 ? { freeBytesPerNode } : {}),
    },
    blockDevices: list(p.blockDevices).flatMap((d) => readBlockDevice(d) ?? []),
    // A target is known by its directory: one without a path says nothing usable.
    targets: list(p.targets).flatMap((t) => {
      const target = readTarget(t);
      return target.path === null ? [] : [target as TargetProfile];
    }),
    sysctls: stringRecord(p.sysctls, scalar),
    thp: { enabled: scalar(thp.enabled), defrag: scalar(thp.defrag) },
  };
}

/** A run's profile snapshot: the host as it was, plus its target (null when none was recorded). */
export function readRunProfile(json: unknown): RunProfileSnapshot {
  const target = obj(obj(json)?.target);
  return { ...readHostProfile(json), target: target ? readTarget(target) : null };
}
