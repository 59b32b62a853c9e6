import { requireActor } from "@/lib/auth/actor";
import { route } from "@/lib/http/handle-route";
import { uuidParam } from "@/lib/http/params";
import { audit } from "@/lib/server/audit/audit-request";
import { deleteHost } from "@/lib/server/hosts/delete-host";
import { getHost } from "@/lib/server/hosts/get-host";

export const dynamic = "force-dynamic";

export const GET = route(async (_req: Request, ctx: { params: Promise<{ id: string }> }) => {
  await requireActor("VIEWER");
  const id = uuidParam((await ctx.params).id, "host");
  return Response.json(await getHost({ id }));
});

/** Deletes a host (whoever added it, or an admin); its runs stay, marked as from a removed host. */
export const DELETE = route(async (_req: Request, ctx: { params: Promise<{ id: string }> }) => {
  const actor = await requireActor("OPERATOR");
  const id = uuidParam((await ctx.params).id, "host");
  const r = await deleteHost({ id, actor });
  await audit({ actor, action: "host.delete", target: { type: "host", id }, details: { name: r.name, runsKept: r.runsKept, runsCancelled: r.runsCancelled } });
  return Response.json({ deleted: id, runsKept: r.runsKept, runsCancelled: r.runsCancelled });
});
