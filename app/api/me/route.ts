import { serviceApi } from "@/lib/api/service";
import { currentActor } from "@/lib/auth/actor";
import { countOpenAlerts } from "@/lib/server/alerts/count-open-alerts";
import { handle } from "../handle";

export const dynamic = "force-dynamic";

/**
 * Who is signed in, and the open-alert count for the Alerts link's badge: the header asks here
 * so that rendering a page never reads the session. Alerts are for signed-in readers only.
 */
export const GET = handle(serviceApi.me, async ({ req }) => {
  const actor = await currentActor(req.headers.get("authorization")).catch(() => null);
  // A failed count leaves the badge out rather than making the header think nobody is signed in.
  const openAlerts = actor ? await countOpenAlerts().catch(() => null) : null;
  return { status: 200, json: { user: actor ? { email: actor.email, role: actor.role } : null, openAlerts }, headers: { "cache-control": "private, no-store" } };
});
