import type { Role } from "@prisma/client";
import { redirect } from "next/navigation";
import { currentActor, type Actor } from "./actor";
import { roleAtLeast } from "./roles";

/** For server components: the signed-in user, or a redirect to the sign-in page. */
export async function requirePageUser(nextPath: string, role: Role = "VIEWER"): Promise<Actor> {
  const actor = await currentActor().catch(() => null);
  if (!actor) redirect(`/sign-in?next=${encodeURIComponent(nextPath)}`);
  if (!roleAtLeast(actor.role, role)) redirect(`/forbidden?need=${role.toLowerCase()}`);
  return actor;
}
