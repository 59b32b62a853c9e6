import { probeIds } from "../../../probes/catalog";
import { readHostProfile } from "../../../probes/profile/read-profile";
import { capabilitiesSchema } from "../../../probes/protocol/schemas";
import { db } from "../../db";
import { missingToolMessage } from "./host-summary";

/** A host as the launch form offers it: its allowed directories with their facts, and why a probe cannot run there. */
export interface LaunchHostOption {
  id: string;
  name: string;
  /** The host's RAM: the forms size presets per target with it (presetSizeMiB, probes/core/sizing.ts). */
  memTotalBytes: number | null;
  targets: { path: string; fsType: string | null; medium: string | null; freeBytes: number | null }[];
  /** probe id → why its tool is missing on this host. */
  missingTools: Record<string, string>;
}

/** Every host by name with what the launch form needs; the allowed directories come from the capabilities, else the profile. */
export async function listLaunchHosts(): Promise<LaunchHostOption[]> {
  const rows = await db().host.findMany({ orderBy: { name: "asc" }, select: { id: true, name: true, profile: true, capabilities: true } });
  return rows.map((h) => {
    const caps = capabilitiesSchema.safeParse(h.capabilities);
    const profile = readHostProfile(h.profile);
    const targets = profile.targets;
    const allowed = caps.success ? caps.data.allowedDirs : targets.map((t) => t.path);
    const missingTools: Record<string, string> = {};
    for (const probe of probeIds) {
      const message = missingToolMessage(h.capabilities, probe, h.name, h.profile);
      if (message) missingTools[probe] = message;
    }
    return {
      id: h.id,
      name: h.name,
      missingTools,
      memTotalBytes: profile.memory.totalBytes,
      targets: allowed.map((path) => {
        const t = targets.find((x) => x.path === path);
        return { path, fsType: t?.fsType ?? null, medium: t?.medium ?? null, freeBytes: t?.freeBytes ?? null };
      }),
    };
  });
}
