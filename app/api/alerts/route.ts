import { seriesApi } from "@/lib/api/series";
import { listAlerts } from "@/lib/server/alerts/list-alerts";
import { handle } from "../handle";

export const dynamic = "force-dynamic";

export const GET = handle(seriesApi.alerts, async ({ query }) => ({ status: 200, json: { alerts: await listAlerts(query) } }));
