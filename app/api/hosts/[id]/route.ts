import { requireActor } from "@/lib/auth/actor";
import { route } from "@/lib/http/handle-route";
import { uuidParam } from "@/lib/http/params";
import { getHost } from "@/lib/server/hosts/get-host";

export const dynamic = "force-dynamic";

export const GET = route(async (_req: Request, ctx: { params: Promise<{ id: string }> }) => {
  await requireActor("VIEWER");
  const id = uuidParam((await ctx.params).id, "host");
  return Response.json(await getHost({ id }));
});
