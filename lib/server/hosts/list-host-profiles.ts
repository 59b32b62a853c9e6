import { readHostProfile } from "../../../probes/profile/read-profile";
import type { HostProfile } from "../../../probes/profile/types";
import { db } from "../../db";

/** Every host's last reported profile, read with the one tolerant reader; by name, then id. */
export async function listHostProfiles(): Promise<Array<{ id: string; name: string; createdAt: Date; profile: HostProfile }>> {
  const rows = await db().host.findMany({ select: { id: true, name: true, createdAt: true, profile: true }, orderBy: [{ name: "asc" }, { id: "asc" }] });
  return rows.map((r) => ({ id: r.id, name: r.name, createdAt: r.createdAt, profile: readHostProfile(r.profile) }));
}
