import { requireActor } from "@/lib/auth/actor";
import { AppError } from "@/lib/http/app-error";
import { fieldErrorsOf, parseJsonBody, route } from "@/lib/http/handle-route";
import { audit } from "@/lib/server/audit/audit-request";
import { createRun, createRunSchema } from "@/lib/server/runs/create-run";
import { listRuns, listRunsQuerySchema } from "@/lib/server/runs/list-runs";

export const dynamic = "force-dynamic";

export const GET = route(async (req: Request) => {
  await requireActor("VIEWER");
  const q = listRunsQuerySchema.safeParse(Object.fromEntries(new URL(req.url).searchParams));
  if (!q.success) throw new AppError("BAD_REQUEST", "Some filters are invalid.", fieldErrorsOf(q.error));
  return Response.json(await listRuns(q.data));
});

export const POST = route(async (req: Request) => {
  const actor = await requireActor("OPERATOR");
  const body = await parseJsonBody(req, createRunSchema, 64 * 1024);
  const { ids } = await createRun(body, actor.userId);
  await audit({ actor, action: "run.launch", target: { type: "run", id: ids[0] ?? "" }, details: { ids, hostId: body.hostId, probe: body.probe } });
  return Response.json({ id: ids[0], ids }, { status: 201 });
});
