import { z } from "zod";

const targetSchema = z
  .object({
    path: z.string().optional(),
    fsType: z.string().nullable().optional(),
    device: z.string().nullable().optional(),
    medium: z.string().nullable().optional(),
    rotational: z.boolean().nullable().optional(),
  })
  .passthrough();

const snapshotSchema = z.object({ target: targetSchema.optional(), memory: z.object({ totalBytes: z.number() }).partial().optional() }).passthrough();

export type Medium = "memory" | "ssd" | "disk" | "unknown";

/**
 * File system and medium of a run's target from its profile snapshot. tmpfs is memory whatever
 * the device says; otherwise a per-host override for the device wins over the rotational flag,
 * which virtual machines often report wrongly.
 */
export function targetFacts(profile: unknown, overrides: unknown): { fsType: string | null; medium: Medium | null; memTotalBytes: number | null } {
  const parsed = snapshotSchema.safeParse(profile);
  if (!parsed.success) return { fsType: null, medium: null, memTotalBytes: null };
  const t = parsed.data.target;
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
  return { fsType, medium, memTotalBytes: parsed.data.memory?.totalBytes ?? null };
}
