// A run's profile snapshot as a share publishes it, field by field. The snapshot is first read
// through the one reader (unknown keys an agent sent are dropped), then every field of
// RunProfileSnapshot goes through its own rule below: the rule tables are typed over the
// profile's keys, so a field added to probes/profile/types.ts does not compile until someone
// decides what a share shows of it (and redact-share.test.ts plants a secret in every field).
import { readRunProfile } from "../../../probes/profile/read-profile";
import type { BlockDeviceInfo, RunProfileSnapshot, SnapshotTarget } from "../../../probes/profile/types";
import { ShareAliases } from "./share-aliases";

type Obj = Record<string, unknown>;
type Rules<T> = { [K in keyof Required<T>]: (value: T[K], a: ShareAliases) => unknown };

/** A short word from a fixed vocabulary ("xfs", "mq-deadline", "madvise", "nvme0n1"): kept if it is one. */
const word = (v: string | null | undefined) => (typeof v === "string" && /^[A-Za-z0-9][\w+-]{0,31}(?:\.[a-z0-9]+)?$/.test(v) && !ShareAliases.isHostLike(v) ? v : null);
const numeric = (v: string) => /^-?\d+(?: -?\d+)*$/.test(v);
const keep = <T>(v: T) => v;
const ISO = (v: string | null) => (v && !Number.isNaN(Date.parse(v)) ? new Date(v).toISOString() : null);
/** Free text a share keeps (kernel version, distribution, models), with what it hides replaced. */
const text = (v: string | null, a: ShareAliases) => (v === null ? null : a.text(v));
const model = (v: string | null, a: ShareAliases) => (a.include.models ? text(v, a) : null);

/** Mount sources that name no machine and no path. */
const PSEUDO_SOURCES = new Set(["tmpfs", "ramfs", "none", "overlay", "proc", "sysfs", "devtmpfs", "shm", "cgroup", "cgroup2", "zram", "rootfs"]);

/** "server:/path" (NFS), "//server/share" (SMB), "[v6]:/path": the machine and the path apart. */
function source(v: string | null, a: ShareAliases): string | null {
  if (v === null) return null;
  const remote = /^\/\/([^/]+)(\/.*)?$/.exec(v) ?? /^(\[[^\]]+\]|[^/:\s]+):(\/.*)?$/.exec(v);
  if (remote) {
    const server = a.server(remote[1]!.replace(/^\[|\]$/g, ""));
    const p = remote[2] ? a.path(remote[2]) : "";
    return v.startsWith("//") ? `//${server}${p}` : `${server}:${p}`;
  }
  if (PSEUDO_SOURCES.has(v)) return v;
  // A device node, a ZFS dataset or a bind source: all of it says where the data lives.
  return a.path(v);
}

/** Options that carry a machine's address, and options that carry an identity. */
const ADDRESS_OPTIONS = new Set(["addr", "clientaddr", "mountaddr", "mounthost", "ip", "server", "srcaddr"]);
const IDENTITY_OPTIONS = new Set(["username", "user", "domain", "workgroup", "password", "pass", "credentials", "cred", "uid_name"]);

/** A mount option with its value judged by its key: addresses and identities, paths, then plain words. */
function mountOption(opt: string, a: ShareAliases): string | null {
  const eq = opt.indexOf("=");
  if (eq < 0) return /^[\w+-]{1,40}$/.test(opt) ? opt : null;
  const key = opt.slice(0, eq);
  const value = opt.slice(eq + 1);
  if (!/^[\w.+-]{1,40}$/.test(key)) return null;
  if (IDENTITY_OPTIONS.has(key.toLowerCase())) return `${key}=hidden`;
  if (ADDRESS_OPTIONS.has(key.toLowerCase()) || ShareAliases.isHostLike(value)) return `${key}=${a.server(value)}`;
  if (value.startsWith("/")) return `${key}=${a.path(value)}`;
  // SELinux contexts ("system_u:object_r:nfs_t:s0") and plain values ("4.2", "krb5", "ordered").
  if (/^"?[\w.:,+-]{0,80}"?$/.test(value) && a.text(value) === value) return opt;
  return `${key}=hidden`;
}

const targetRules: Rules<SnapshotTarget> = {
  path: (v, a) => (v === null ? null : a.path(v)),
  fsType: (v) => word(v),
  source,
  mountPoint: (v, a) => (v === null ? null : a.path(v)),
  mountOptions: (v, a) => v.flatMap((o) => mountOption(o, a) ?? []),
  device: (v) => word(v),
  rotational: keep,
  model,
  medium: keep,
  totalBytes: keep,
  freeBytes: keep,
};

const blockDeviceRules: Rules<BlockDeviceInfo> = {
  name: (v) => word(v) ?? "device",
  model,
  sizeBytes: keep,
  rotational: keep,
  type: (v) => word(v),
  scheduler: (v) => word(v),
  hwQueueDepth: keep,
};

const nodeKeyed = <T>(v: Record<string, T> | undefined, ok: (x: T) => boolean) =>
  v === undefined ? undefined : Object.fromEntries(Object.entries(v).filter(([k, x]) => /^\d{1,4}$/.test(k) && ok(x)));

const profileRules: Rules<RunProfileSnapshot> = {
  collectedAt: ISO,
  hostname: (v, a) => (a.include.hostnames ? v : undefined),
  kernel: (v, a) => (a.include.kernel ? { release: text(v.release, a), version: text(v.version, a) } : undefined),
  distro: (v, a) => (a.include.kernel ? text(v, a) : undefined),
  os: (v, a) => (a.include.kernel && v ? { id: word(v.id), idLike: v.idLike.flatMap((x) => word(x) ?? []), versionId: word(v.versionId) } : undefined),
  cpu: (v, a) => ({ model: model(v.model, a), count: v.count, sockets: v.sockets }),
  memory: keep,
  numa: (v) => ({ nodes: v.nodes, cpusPerNode: nodeKeyed(v.cpusPerNode, (x) => /^[\d,\s-]{1,200}$/.test(x)), freeBytesPerNode: nodeKeyed(v.freeBytesPerNode, () => true) }),
  blockDevices: (v, a) => v.map((d) => apply(blockDeviceRules, d, a)),
  targets: (v, a) => v.map((t) => apply(targetRules, t, a)),
  // Sysctl values are numbers; a text value (a path, a name) is not one a comparison needs.
  sysctls: (v) => Object.fromEntries(Object.entries(v).filter(([k, x]) => /^[a-z][\w-]*(?:\.[\w-]+)+$/.test(k) && numeric(x))),
  thp: (v) => ({ enabled: word(v.enabled), defrag: word(v.defrag) }),
  target: (v, a) => (v ? apply(targetRules, v, a) : null),
};

function apply<T extends object>(rules: Rules<T>, value: T, a: ShareAliases): Obj {
  const out: Obj = {};
  for (const key of Object.keys(rules) as (keyof T)[]) {
    const v = (rules[key] as (x: unknown, a: ShareAliases) => unknown)(value[key], a);
    if (v !== undefined) out[key as string] = v;
  }
  return out;
}

/** Whether a value carries any fact: sections the comparison did not keep read back empty and stay out. */
const known = (v: unknown): boolean => v !== null && v !== undefined && (typeof v !== "object" || Object.values(v as Obj).some(known));

/** A shared profile: each field by its rule; sections that say nothing are left out, as in shareableProfile. */
export function redactProfile(profile: Obj | null, a: ShareAliases, opts: { reference: boolean }): Obj | null {
  if (!profile) return null;
  const out: Obj = {};
  // Reference runs: an article's published facts, public by nature.
  if (opts.reference && profile.reference && typeof profile.reference === "object") out.reference = profile.reference;
  const p = readRunProfile(profile);
  const present = new Set(Object.keys(profile));
  for (const [k, v] of Object.entries(apply(profileRules, p, a))) if (present.has(k) && known(v)) out[k] = v;
  return Object.keys(out).length ? out : null;
}

/** The names a profile gives its own machine, so free text anywhere in the share hides them too. */
export function profileHostname(profile: Obj | null): string | null {
  return profile ? readRunProfile(profile).hostname : null;
}
