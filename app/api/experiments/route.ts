import { requireActor } from "@/lib/auth/actor";
import { AppError } from "@/lib/http/app-error";
import { fieldErrorsOf, parseJsonBody, route } from "@/lib/http/handle-route";
import { audit } from "@/lib/server/audit/audit-request";
import { createExperiment } from "@/lib/server/experiments/create-experiment";
import { listExperiments } from "@/lib/server/experiments/list-experiments";
import { createExperimentSchema, listExperimentsQuerySchema } from "@/lib/server/experiments/schemas";

export const dynamic = "force-dynamic";

export const GET = route(async (req: Request) => {
  await requireActor("VIEWER");
  const q = listExperimentsQuerySchema.safeParse(Object.fromEntries(new URL(req.url).searchParams));
  if (!q.success) throw new AppError("BAD_REQUEST", "Some filters are invalid.", fieldErrorsOf(q.error));
  return Response.json({ experiments: await listExperiments(q.data) });
});

export const POST = route(async (req: Request) => {
  const actor = await requireActor("OPERATOR");
  const input = await parseJsonBody(req, createExperimentSchema, 64 * 1024);
  const { id } = await createExperiment({ input, createdById: actor.userId });
  await audit({ actor, action: "experiment.create", target: { type: "experiment", id }, details: { hostId: input.hostId, probe: input.probe, arms: input.arms.length } });
  return Response.json({ id }, { status: 201 });
});
