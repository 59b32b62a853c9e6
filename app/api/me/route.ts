import { currentActor } from "@/lib/auth/actor";
import { route } from "@/lib/http/handle-route";

export const dynamic = "force-dynamic";

/** Who is signed in, for the header of statically rendered pages. */
export const GET = route(async () => {
  const actor = await currentActor().catch(() => null);
  return Response.json(
    { user: actor ? { email: actor.email, role: actor.role } : null },
    { headers: { "cache-control": "private, no-store" } },
  );
});
