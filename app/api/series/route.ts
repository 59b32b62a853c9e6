import { seriesApi } from "@/lib/api/series";
import { listSeries } from "@/lib/server/series/list-series";
import { handle } from "../handle";

export const dynamic = "force-dynamic";

export const GET = handle(seriesApi.list, async ({ query }) => ({ status: 200, json: { series: await listSeries({ hostId: query.hostId }) } }));
