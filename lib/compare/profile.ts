// What of a run's profile snapshot a comparison keeps. A shared comparison is public, so it keeps
// the facts "what differs" reads (target file system, mount options, device and its scheduler,
// kernel, CPU, memory, NUMA, vm sysctls, THP) and drops the rest of the host's inventory: the
// other allowed directories, every other block device, free space.
import { readRunProfile } from "../../probes/profile/read-profile";

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | null => (v && typeof v === "object" && !Array.isArray(v) ? (v as Obj) : null);
/** Whether a value carries any fact: a section whose fields are all null or empty is left out. */
const known = (v: unknown): boolean => v !== null && (typeof v !== "object" || Object.values(v as Obj).some(known));

export function shareableProfile(profile: unknown): Obj | null {
  const raw = obj(profile);
  if (!raw) return null;
  const p = readRunProfile(raw);
  const out: Obj = {};
  // Reference runs: the article's facts, kept whole.
  if (obj(raw.reference)) out.reference = raw.reference;
  const host = { collectedAt: p.collectedAt, hostname: p.hostname, kernel: p.kernel, distro: p.distro, cpu: p.cpu, memory: p.memory, sysctls: p.sysctls, thp: p.thp };
  for (const [k, v] of Object.entries(host)) if (known(v)) out[k] = v;
  if (p.numa.nodes !== null) out.numa = { nodes: p.numa.nodes };
  const target = p.target;
  if (target) {
    const { freeBytes: _free, ...rest } = target;
    out.target = rest;
    const d = target.device ? p.blockDevices.find((b) => b.name === target.device) : undefined;
    if (d) out.blockDevices = [d];
  }
  return Object.keys(out).length ? out : null;
}
