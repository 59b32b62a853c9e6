import { experimentsApi } from "@/lib/api/experiments";
import { audit } from "@/lib/server/audit/audit-request";
import { createExperiment } from "@/lib/server/experiments/create-experiment";
import { listExperiments } from "@/lib/server/experiments/list-experiments";
import { handle } from "../handle";

export const dynamic = "force-dynamic";

export const GET = handle(experimentsApi.list, async ({ query }) => ({ status: 200, json: { experiments: await listExperiments(query) } }));

export const POST = handle(experimentsApi.create, async ({ actor, body: input }) => {
  const { id } = await createExperiment({ input, createdById: actor.userId });
  await audit({ actor, action: "experiment.create", target: { type: "experiment", id }, details: { hostId: input.hostId, probe: input.probe, kind: input.kind, arms: input.arms.length, ...(input.sweep ? { points: input.sweep.iodepths.length * input.sweep.numjobs.length * (input.sweep.blockSizesKiB?.length ?? 1) } : {}) } });
  return { status: 201, json: { id } };
});
