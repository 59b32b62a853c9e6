import { z } from "zod";
import { readRunProfile } from "../../../probes/profile/read-profile";
import type { Medium } from "../../../probes/profile/types";

/**
 * File system and medium of a run's target from its profile snapshot. tmpfs is memory whatever
 * the device says; otherwise a per-host override for the device wins over the rotational flag,
 * which virtual machines often report wrongly.
 */
export function targetFacts(profile: unknown, overrides: unknown): { fsType: string | null; medium: Medium | null; memTotalBytes: number | null } {
  const snapshot = readRunProfile(profile);
  const t = snapshot.target;
  const fsType = t?.fsType ?? null;
  let medium: Medium | null = null;
  if (fsType === "tmpfs" || fsType === "ramfs") medium = "memory";
  else {
    const o = z.record(z.string(), z.enum(["memory", "ssd", "disk"])).safeParse(overrides);
    const override = o.success && t?.device ? o.data[t.device] : undefined;
    if (override) medium = override;
    else if (t?.medium === "memory" || t?.medium === "ssd" || t?.medium === "disk") medium = t.medium;
    else if (typeof t?.rotational === "boolean") medium = t.rotational ? "disk" : "ssd";
    else if (t) medium = "unknown";
  }
  return { fsType, medium, memTotalBytes: snapshot.memory.totalBytes };
}
