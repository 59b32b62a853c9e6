// A host as the trials see it (lib/experiments/trials.ts): its stored profile and capabilities
// for one target directory. Pure, so the form (client) and create-experiment (server) agree.
import type { HostProfile } from "../../probes/profile/types";
import type { TrialHost } from "./trials";

export interface TrialCaps {
  tunables: { dropCaches: boolean; current: { name: string; device: string | null; value: string | null }[] } | null;
}

export function trialHost(name: string, profile: HostProfile, caps: TrialCaps | null, targetPath: string | null): TrialHost {
  const settings: Record<string, string> = { ...profile.sysctls };
  for (const c of caps?.tunables?.current ?? []) if (c.device === null && c.value !== null) settings[c.name] = c.value;
  const t = targetPath === null ? null : (profile.targets.find((x) => x.path === targetPath) ?? null);
  const queue: Record<string, string> = {};
  const disk = t?.device ? profile.blockDevices.find((d) => d.name === t.device) : undefined;
  if (t?.device) {
    for (const c of caps?.tunables?.current ?? []) if (c.device === t.device && c.value !== null) queue[c.name] = c.value;
    const sched = disk?.scheduler;
    if (!queue["queue/scheduler"] && sched) queue["queue/scheduler"] = sched;
  }
  return {
    name,
    memTotalBytes: profile.memory.totalBytes,
    dirtyableBytes: profile.memory.dirtyableBytes ?? null,
    settings,
    numaNodes: profile.numa.nodes,
    freeBytesPerNode: profile.numa.freeBytesPerNode ?? null,
    dropCachesAllowed: caps?.tunables?.dropCaches ?? false,
    target:
      targetPath === null
        ? null
        : { path: targetPath, fsType: t?.fsType ?? null, medium: t?.medium ?? null, device: t?.device ?? null, freeBytes: t?.freeBytes ?? null, queue, hwQueueDepth: disk?.hwQueueDepth ?? null },
  };
}
