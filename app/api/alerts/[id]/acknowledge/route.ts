import { seriesApi } from "@/lib/api/series";
import { requestIp } from "@/lib/server/audit/audit-request";
import { acknowledgeAlert } from "@/lib/server/alerts/acknowledge-alert";
import { handle } from "../../../handle";

export const dynamic = "force-dynamic";

export const POST = handle(seriesApi.acknowledge, async ({ actor, params: { id } }) => ({ status: 200, json: await acknowledgeAlert({ id, actor, ip: await requestIp().catch(() => null) }) }));
