import { seriesApi } from "@/lib/api/series";
import { AppError } from "@/lib/http/app-error";
import { requestIp } from "@/lib/server/audit/audit-request";
import { getSeries } from "@/lib/server/series/get-series";
import { updateSeries } from "@/lib/server/series/update-series";
import { handle } from "../../handle";

export const dynamic = "force-dynamic";

export const GET = handle(seriesApi.get, async ({ params: { id } }) => {
  const series = await getSeries({ id });
  if (!series) throw new AppError("NOT_FOUND", `No series ${id}.`);
  return { status: 200, json: series };
});

export const PATCH = handle(seriesApi.update, async ({ actor, params: { id }, body }) => ({
  status: 200,
  json: await updateSeries({ id, input: body, actor, ip: await requestIp().catch(() => null) }),
}));
