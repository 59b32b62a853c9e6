import { hostsApi } from "@/lib/api/hosts";
import { requestIp } from "@/lib/server/audit/audit-request";
import { deleteHost } from "@/lib/server/hosts/delete-host";
import { getHost } from "@/lib/server/hosts/get-host";
import { hostDetailToJson } from "@/lib/server/hosts/host-json";
import { handle } from "../../handle";

export const dynamic = "force-dynamic";

export const GET = handle(hostsApi.get, async ({ params: { id } }) => ({ status: 200, json: hostDetailToJson(await getHost({ id })) }));

/** Deletes a host (whoever added it, or an admin); its runs and experiments stay, marked as from a removed host. The use case audits it. */
export const DELETE = handle(hostsApi.delete, async ({ actor, params: { id } }) => {
  const r = await deleteHost({ id, actor, ip: await requestIp().catch(() => null) });
  return { status: 200, json: { deleted: id, runsKept: r.runsKept, runsCancelled: r.runsCancelled, runsInFlight: r.runsInFlight, experimentsKept: r.experimentsKept, experimentsEnded: r.experimentsEnded } };
});
