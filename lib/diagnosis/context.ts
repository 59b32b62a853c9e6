// What a rule needs to know about the machine beyond its samples: the same pgscand/s means zone
// reclaim on a host with vm.zone_reclaim_mode = 1 and something else with 0, and %util near 100
// is a limit for a single spinning disk and not for an SSD. Read from the run's profile snapshot
// (the host's profile plus the run's target, probes/profile/read-profile.ts); every fact is null
// when the profile did not record it, and rules must say so rather than guess.
import { readRunProfile } from "../../probes/profile/read-profile";

export interface DiagnosisContext {
  /**
   * The target device's queue/rotational flag (true: the kernel treats it as a spinning disk).
   * VMs often report virtio disks as rotational, and loop devices inherit the flag of the
   * device under their backing file, so true is a claim of the device, not a fact about it.
   */
  rotational: boolean | null;
  /** Where the flag came from, for the finding's text, e.g. "vda". */
  device: string | null;
  numaNodes: number | null;
  /** vm.zone_reclaim_mode (a bitmask; 0, the default since Linux 3.16, turns it off). */
  zoneReclaimMode: number | null;
  /** The dirty sysctls in force: a non-zero _bytes value replaces its _ratio (vm.rst). */
  dirty: { ratio: number | null; backgroundRatio: number | null; bytes: number | null; backgroundBytes: number | null };
}

export const UNKNOWN_CONTEXT: DiagnosisContext = {
  rotational: null,
  device: null,
  numaNodes: null,
  zoneReclaimMode: null,
  dirty: { ratio: null, backgroundRatio: null, bytes: null, backgroundBytes: null },
};

const int = (v: string | undefined): number | null => (v !== undefined && /^\d+$/.test(v.trim()) ? Number(v.trim()) : null);

/** The context of a run from its stored profile snapshot (any JSON; unknown parts read as null). */
export function contextFromProfile(profile: unknown): DiagnosisContext {
  if (profile === null || profile === undefined) return UNKNOWN_CONTEXT;
  const p = readRunProfile(profile);
  const device = p.target?.device ?? null;
  // The target's own flag first; older snapshots only list the host's devices.
  const rotational = p.target?.rotational ?? p.blockDevices.find((d) => d.name === device)?.rotational ?? null;
  const s = p.sysctls;
  return {
    rotational,
    device,
    numaNodes: p.numa.nodes,
    zoneReclaimMode: int(s["vm.zone_reclaim_mode"]),
    dirty: {
      ratio: int(s["vm.dirty_ratio"]),
      backgroundRatio: int(s["vm.dirty_background_ratio"]),
      bytes: int(s["vm.dirty_bytes"]),
      backgroundBytes: int(s["vm.dirty_background_bytes"]),
    },
  };
}

/** "vm.dirty_ratio 20, vm.dirty_background_ratio 10" (or the _bytes values in force), or null. */
export function dirtySettings(ctx: DiagnosisContext): string | null {
  const d = ctx.dirty;
  const limit = d.bytes ? `vm.dirty_bytes ${d.bytes}` : d.ratio !== null ? `vm.dirty_ratio ${d.ratio}` : null;
  const bg = d.backgroundBytes ? `vm.dirty_background_bytes ${d.backgroundBytes}` : d.backgroundRatio !== null ? `vm.dirty_background_ratio ${d.backgroundRatio}` : null;
  const parts = [limit, bg].filter((x): x is string => x !== null);
  return parts.length > 0 ? parts.join(", ") : null;
}
