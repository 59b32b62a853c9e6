import { requireActor } from "@/lib/auth/actor";
import { route } from "@/lib/http/handle-route";
import { uuidParam } from "@/lib/http/params";
import { getRunTelemetry } from "@/lib/server/runs/get-run-telemetry";

export const dynamic = "force-dynamic";

/** Signed in: the machine's telemetry during the run, one sample a second, units in the document. */
export const GET = route(async (_req: Request, ctx: { params: Promise<{ id: string }> }) => {
  await requireActor("VIEWER");
  return Response.json(await getRunTelemetry({ runId: uuidParam((await ctx.params).id, "run") }));
});
