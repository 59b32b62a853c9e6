import { serviceApi } from "@/lib/api/service";
import { currentActor } from "@/lib/auth/actor";
import { handle } from "../handle";

export const dynamic = "force-dynamic";

/** Who is signed in, for the header of statically rendered pages. */
export const GET = handle(serviceApi.me, async ({ req }) => {
  const actor = await currentActor(req.headers.get("authorization")).catch(() => null);
  return { status: 200, json: { user: actor ? { email: actor.email, role: actor.role } : null }, headers: { "cache-control": "private, no-store" } };
});
