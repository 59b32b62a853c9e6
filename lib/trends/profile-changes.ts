// What changed on a host between runs of a series, from each run's own profile snapshot and its
// tool's version: the "why" beside "is this host getting slower?". Pure.
// Only what the snapshot really holds is compared (probes/profile/types.ts): the target's
// read_ahead_kb and nr_requests are not collected, so they cannot be named here.
// A fact one side does not know (an older agent, an import without a profile) is not a change:
// "unknown → 32" would read as a cause when it is only a gap in what was recorded.
import { readRunProfile } from "../../probes/profile/read-profile";
import type { ProfileChange } from "../api/schemas/series";

export type { ProfileChange };

export interface ProfileField {
  label: string;
  value: string;
}

/** Field key (kernel, sysctl.vm.dirty_ratio …) → label and value, in display order. */
export type ProfileFields = Record<string, ProfileField>;

const GiB = 2 ** 30;
const MiB = 2 ** 20;

/**
 * Memory as a person would say it. MemTotal moves by a few MiB between kernels (reserved
 * memory), so it is rounded: whole GiB from 4 GiB, else 64 MiB steps.
 */
export function roundedMemory(bytes: number): string {
  if (bytes >= 4 * GiB) return `${Math.round(bytes / GiB)} GiB`;
  return `${Math.round(bytes / (64 * MiB)) * 64} MiB`;
}

function toolVersionOf(result: unknown): { tool: string | null; version: string | null } {
  if (!result || typeof result !== "object") return { tool: null, version: null };
  const r = result as { tool?: unknown; toolVersion?: unknown };
  return { tool: typeof r.tool === "string" ? r.tool : null, version: typeof r.toolVersion === "string" && r.toolVersion ? r.toolVersion : null };
}

/** A run's profile snapshot (any stored shape) and its result → the facts a change may name. */
export function profileFields(profile: unknown, result?: unknown): ProfileFields {
  const out: ProfileFields = {};
  const put = (field: string, label: string, value: string | number | null | undefined) => {
    if (value === null || value === undefined || value === "") return;
    out[field] = { label, value: String(value) };
  };
  if (profile && typeof profile === "object") {
    const p = readRunProfile(profile);
    const t = p.target;
    put("kernel", "kernel", p.kernel.release);
    put("distro", "distribution", p.distro);
    put("fs.type", "file system", t?.fsType);
    put("mount.options", "mount options", t && t.mountOptions.length > 0 ? t.mountOptions.join(",") : null);
    put("device", "device", t?.device);
    put("device.model", "disk model", t?.model);
    const disk = t?.device ? p.blockDevices.find((d) => d.name === t.device) : undefined;
    put("block.scheduler", "I/O scheduler", disk?.scheduler);
    put("block.hw_queue_depth", "hardware queue depth", disk?.hwQueueDepth);
    for (const key of Object.keys(p.sysctls).sort()) put(`sysctl.${key}`, `\`${key}\``, p.sysctls[key]);
    put("thp.enabled", "THP enabled", p.thp.enabled);
    put("thp.defrag", "THP defrag", p.thp.defrag);
    put("numa.nodes", "NUMA nodes", p.numa.nodes);
    put("cpu.count", "CPUs", p.cpu.count);
    put("memory.total", "memory", p.memory.totalBytes !== null ? roundedMemory(p.memory.totalBytes) : null);
    put("medium", "medium", t?.medium);
  }
  const tv = toolVersionOf(result);
  put("tool.version", tv.tool ? `${tv.tool} version` : "tool version", tv.version);
  return out;
}

/** The fields both sides know and that differ, in a's order (then b's). */
export function diffProfiles(a: ProfileFields, b: ProfileFields): ProfileChange[] {
  const changes: ProfileChange[] = [];
  for (const field of Object.keys(a)) {
    const x = a[field];
    const y = b[field];
    if (x && y && x.value !== y.value) changes.push({ field, label: y.label, from: x.value, to: y.value });
  }
  return changes;
}

export interface ProfiledRun {
  id: string;
  at: string;
  fields: ProfileFields;
}

/**
 * Each change between consecutive runs, on the first run with the new value. Runs with no
 * recorded profile are skipped, so a gap does not hide the change across it.
 */
export function profileAnnotations(runs: readonly ProfiledRun[]): { runId: string; at: string; changes: ProfileChange[] }[] {
  const out: { runId: string; at: string; changes: ProfileChange[] }[] = [];
  let prev: ProfileFields | null = null;
  for (const run of runs) {
    if (Object.keys(run.fields).length === 0) continue;
    if (prev) {
      const changes = diffProfiles(prev, run.fields);
      if (changes.length > 0) out.push({ runId: run.id, at: run.at, changes });
    }
    prev = run.fields;
  }
  return out;
}

/**
 * Each field's most common value in a window (a tie goes to the later value: the window's
 * state as it ended). One run with a stray setting does not make a window change.
 */
export function typicalFields(window: readonly ProfileFields[]): ProfileFields {
  const tallies = new Map<string, Map<string, { field: ProfileField; n: number; last: number }>>();
  window.forEach((fields, i) => {
    for (const [key, field] of Object.entries(fields)) {
      const byValue = tallies.get(key) ?? new Map<string, { field: ProfileField; n: number; last: number }>();
      tallies.set(key, byValue);
      const t = byValue.get(field.value);
      byValue.set(field.value, { field, n: (t?.n ?? 0) + 1, last: i });
    }
  });
  const out: ProfileFields = {};
  for (const [key, byValue] of tallies) {
    let best: { field: ProfileField; n: number; last: number } | null = null;
    for (const t of byValue.values()) if (!best || t.n > best.n || (t.n === best.n && t.last > best.last)) best = t;
    if (best) out[key] = best.field;
  }
  return out;
}

/** What differs between the typical host of the baseline window and of the recent one. */
export function windowChanges(baseline: readonly ProfileFields[], recent: readonly ProfileFields[]): ProfileChange[] {
  return diffProfiles(typicalFields(baseline), typicalFields(recent));
}
