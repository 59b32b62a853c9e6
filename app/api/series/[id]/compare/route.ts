import { seriesApi } from "@/lib/api/series";
import { compareWindows } from "@/lib/server/series/compare-windows";
import { handle } from "../../../handle";

export const dynamic = "force-dynamic";

export const POST = handle(seriesApi.compare, async ({ params: { id }, body }) => ({ status: 200, json: await compareWindows({ id, a: body.a, b: body.b }) }));
