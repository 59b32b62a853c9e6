import { readHostProfile } from "../../../probes/profile/read-profile";
import type { HostProfile } from "../../../probes/profile/types";
import { capabilitiesSchema } from "../../../probes/protocol/schemas";
import { listLaunchHosts, type LaunchHostOption } from "../hosts/list-launch-hosts";
import { db } from "../../db";

/** A host as the new-experiment form offers it: the launch facts plus what its agent may set up. */
export interface ExperimentHostOption extends LaunchHostOption {
  lab: { dir: string; fileSystems: string[]; freeBytes: number | null; devices: { path: string; sizeBytes: number }[] } | null;
  tunables: { allowed: string[]; dropCaches: boolean; current: { name: string; device: string | null; value: string | null }[] } | null;
  numaNodes: number | null;
  /** The stored profile, from which the form sizes a trial (lib/experiments/trial-host.ts). */
  profile: HostProfile;
}

export async function listExperimentHosts(): Promise<ExperimentHostOption[]> {
  const [launch, rows] = await Promise.all([listLaunchHosts(), db().host.findMany({ select: { id: true, capabilities: true, profile: true } })]);
  return launch.map((h) => {
    const row = rows.find((r) => r.id === h.id);
    const caps = capabilitiesSchema.safeParse(row?.capabilities);
    const profile = readHostProfile(row?.profile);
    return {
      ...h,
      lab: caps.success && caps.data.lab ? { dir: caps.data.lab.dir, fileSystems: caps.data.lab.fileSystems, freeBytes: caps.data.lab.freeBytes, devices: caps.data.lab.devices ?? [] } : null,
      tunables: caps.success && caps.data.tunables ? { allowed: caps.data.tunables.allowed, dropCaches: caps.data.tunables.dropCaches, current: caps.data.tunables.current } : null,
      numaNodes: profile.numa.nodes,
      profile,
    };
  });
}
