import { z } from "zod";
import { db } from "../../db";
import { uuidSchema } from "../../http/params";

export const mediumOverrideSchema = z.object({
  hostId: uuidSchema(),
  device: z.string().regex(/^[a-zA-Z0-9_.-]{1,64}$/),
  medium: z.enum(["auto", "ssd", "disk", "memory"]),
});

/** Corrects the medium of a device (VMs report rotational wrongly); applies to runs finished afterwards. "auto" removes the correction. */
export async function setMediumOverride({ hostId, device, medium }: z.infer<typeof mediumOverrideSchema>): Promise<void> {
  const host = await db().host.findUniqueOrThrow({ where: { id: hostId }, select: { mediumOverrides: true } });
  const next = { ...((host.mediumOverrides ?? {}) as Record<string, string>) };
  if (medium === "auto") delete next[device];
  else next[device] = medium;
  await db().host.update({ where: { id: hostId }, data: { mediumOverrides: next } });
}
