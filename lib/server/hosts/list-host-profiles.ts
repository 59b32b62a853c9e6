import type { Actor } from "../../auth/actor";
import { readHostProfile } from "../../../probes/profile/read-profile";
import type { HostProfile } from "../../../probes/profile/types";
import { db } from "../../db";

/**
 * The last reported profile of every host the actor may read, with the one tolerant reader; by
 * name, then id. A profile names directories, mount points and devices, so an anonymous visitor
 * (actor null) reads none. Every signed-in user may read every host (the host list and
 * GET /api/hosts need only the viewer role), so a signed-in actor reads them all.
 */
export async function listHostProfiles(opts: { actor: Actor | null }): Promise<Array<{ id: string; name: string; createdAt: Date; profile: HostProfile }>> {
  if (!opts.actor) return [];
  const rows = await db().host.findMany({ select: { id: true, name: true, createdAt: true, profile: true }, orderBy: [{ name: "asc" }, { id: "asc" }] });
  return rows.map((r) => ({ id: r.id, name: r.name, createdAt: r.createdAt, profile: readHostProfile(r.profile) }));
}
