// "May this host run this probe here?" — decided once, for the server that queues a run or an
// experiment arm and for the agent that is about to run it. Written twice, the two drifted: the
// server compared free space without the agent's margin and queued runs the agent then refused.
// Pure: each side gathers the host's facts its own way (the server from what the agent reported,
// the agent from the file system: realpath, statfs, PATH) and formats the refusal for its reader.
import path from "node:path";
import { getProbe, validateParams, type AnyProbe, type AnyProbeParams } from "./catalog";
import { FREE_SPACE_MARGIN_BYTES } from "./core/sizing";

/** Head-room on top of what a probe writes: a file system at 100 % disturbs the measurement and the host. */
export { FREE_SPACE_MARGIN_BYTES };

/** What is known of the host, as seen by whoever asks. */
export interface HostFacts {
  /** The directories the agent runs probes in (the agent gives their real paths). */
  allowedDirs: readonly string[];
  /** Whether the probe's tool is installed; null when the host has not said (the agent decides). */
  toolInstalled: boolean | null;
  /**
   * Free bytes in a target directory. Null when not known, which admits (the server's copy of the
   * profile may not list the directory; the agent checks again); `unreadable` refuses a run that
   * writes (the agent could not read it).
   */
  freeBytesIn(target: string): number | null | { unreadable: string };
}

export type Refusal =
  | { kind: "unknown-probe"; probe: string }
  | { kind: "invalid-params"; message: string; fieldErrors: Record<string, string[]> }
  | { kind: "outside-allowed"; target: string; allowedDirs: readonly string[] }
  | { kind: "tool-missing"; probe: AnyProbe }
  | { kind: "no-space"; target: string; writesBytes: number; needsBytes: number; freeBytes: number }
  | { kind: "free-unknown"; target: string; error: string };

export type Admission =
  | { ok: true; probe: AnyProbe; params: AnyProbeParams; target: string; writesBytes: number }
  | { ok: false; refusal: Refusal };

/** True when `target` is one of `allowed` or below it; /srv/data2 is not inside /srv/data. */
export function insideAllowed(target: string, allowed: readonly string[]): boolean {
  const t = path.posix.normalize(target);
  return allowed.some((dir) => {
    const d = path.posix.normalize(dir).replace(/\/+$/, "") || "/";
    return t === d || t.startsWith(d === "/" ? "/" : `${d}/`);
  });
}

/** Bytes a run of `writesBytes` needs free: the same margin wherever it is asked. */
export const neededFreeBytes = (writesBytes: number) => writesBytes + FREE_SPACE_MARGIN_BYTES;

/**
 * The rule, in the order a person fixes things: a probe Probebook knows, valid parameters, a
 * target inside the agent's directories, the tool installed, and room for what the run writes
 * plus the margin. The first refusal is returned.
 */
export function admitProbe(job: { probe: string; params: unknown }, host: HostFacts): Admission {
  const probe = getProbe(job.probe);
  if (!probe) return refuse({ kind: "unknown-probe", probe: job.probe });
  const v = validateParams(probe.id, job.params);
  if (!v.ok) return refuse({ kind: "invalid-params", message: v.message, fieldErrors: v.fieldErrors });
  const params = v.params;
  const target = params.target;
  if (!insideAllowed(target, host.allowedDirs)) return refuse({ kind: "outside-allowed", target, allowedDirs: host.allowedDirs });
  if (host.toolInstalled === false) return refuse({ kind: "tool-missing", probe });
  const writesBytes = probe.requiredFreeBytes(params);
  if (writesBytes > 0) {
    const free = host.freeBytesIn(target);
    if (free !== null && typeof free === "object") return refuse({ kind: "free-unknown", target, error: free.unreadable });
    if (free !== null && free < neededFreeBytes(writesBytes)) {
      return refuse({ kind: "no-space", target, writesBytes, needsBytes: neededFreeBytes(writesBytes), freeBytes: free });
    }
  }
  return { ok: true, probe, params, target, writesBytes };
}

/** Why a lab image of `imageBytes` may not be made in a lab dir with `freeBytes` free (the same margin), or null. */
export function labImageRefusal(imageBytes: number, freeBytes: number | null): { needsBytes: number; freeBytes: number } | null {
  const needsBytes = neededFreeBytes(imageBytes);
  return freeBytes !== null && freeBytes < needsBytes ? { needsBytes, freeBytes } : null;
}

const refuse = (refusal: Refusal): Admission => ({ ok: false, refusal });
