import { experimentsApi } from "@/lib/api/experiments";
import { experimentApiJson } from "@/lib/server/experiments/get-experiment";
import { handle } from "../../handle";

export const dynamic = "force-dynamic";

export const GET = handle(experimentsApi.get, async ({ params: { id } }) => ({ status: 200, json: await experimentApiJson(id) }));
