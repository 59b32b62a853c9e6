// What of a run's profile snapshot a comparison keeps. A shared comparison is public, so it keeps
// the facts "what differs" reads (target file system, mount options, device and its scheduler,
// kernel, CPU, memory, NUMA, vm sysctls, THP) and drops the rest of the host's inventory: the
// other allowed directories, every other block device, free space.

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | null => (v && typeof v === "object" && !Array.isArray(v) ? (v as Obj) : null);

const HOST_KEYS = ["collectedAt", "hostname", "kernel", "distro", "cpu", "memory", "sysctls", "thp"] as const;

export function shareableProfile(profile: unknown): Obj | null {
  const p = obj(profile);
  if (!p) return null;
  const out: Obj = {};
  // Reference runs: the article's facts, kept whole.
  if (obj(p.reference)) out.reference = p.reference;
  for (const k of HOST_KEYS) if (p[k] !== undefined) out[k] = p[k];
  const numa = obj(p.numa);
  if (numa && typeof numa.nodes === "number") out.numa = { nodes: numa.nodes };
  const target = obj(p.target);
  if (target) {
    const { freeBytes: _free, ...rest } = target;
    out.target = rest;
    const device = typeof target.device === "string" ? target.device : null;
    if (device && Array.isArray(p.blockDevices)) {
      const d = p.blockDevices.map(obj).find((b) => b?.name === device);
      if (d) out.blockDevices = [d];
    }
  }
  return Object.keys(out).length ? out : null;
}
