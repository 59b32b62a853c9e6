// The server's share of the trials' rules (lib/experiments/trials.ts): arms whose setting cannot
// bind where they would run are refused with a field error rather than run to a "no difference".
import type { HostProfile } from "../../../probes/profile/types";

/** Settings that act on written-back or disk-read pages, which tmpfs never has. */
const PAGE_CACHE_OR_DISK = /^(vm\.dirty_|vm\.zone_reclaim_mode$|queue\/)/;

export function trialBindingErrors(hostName: string, profile: HostProfile, tunables: Record<string, string>, target: unknown, field: string): [string, string][] {
  const errors: [string, string][] = [];
  const t = typeof target === "string" ? profile.targets.find((x) => x.path === target) : undefined;
  const onTmpfs = t !== undefined && (t.fsType === "tmpfs" || t.fsType === "ramfs" || t.medium === "memory");
  for (const name of Object.keys(tunables)) {
    if (name === "vm.zone_reclaim_mode" && profile.numa.nodes !== null && profile.numa.nodes <= 1) {
      errors.push([`${field}.${name}`, `${hostName} has one NUMA node: zone reclaim has no other node to prefer, so ${name} cannot change anything there.`]);
    } else if (onTmpfs && PAGE_CACHE_OR_DISK.test(name)) {
      errors.push([`${field}.${name}`, `${String(target)} is on tmpfs: its pages are never written back nor read from a disk, so ${name} cannot change what the probe measures there.`]);
    }
  }
  return errors;
}
