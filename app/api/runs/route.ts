import { runsApi } from "@/lib/api/runs";
import { audit } from "@/lib/server/audit/audit-request";
import { createRun } from "@/lib/server/runs/create-run";
import { listRuns } from "@/lib/server/runs/list-runs";
import { handle } from "../handle";

export const dynamic = "force-dynamic";

export const GET = handle(runsApi.list, async ({ query }) => ({ status: 200, json: await listRuns(query) }));

export const POST = handle(runsApi.create, async ({ actor, body }) => {
  const { ids } = await createRun({ input: body, createdById: actor.userId });
  await audit({ actor, action: "run.launch", target: { type: "run", id: ids[0] ?? "" }, details: { ids, hostId: body.hostId, probe: body.probe } });
  return { status: 201, json: { id: ids[0]!, ids } };
});
