import { runsApi } from "@/lib/api/runs";
import { getRunLog } from "@/lib/server/runs/get-run-log";
import { handle } from "../../../handle";

export const dynamic = "force-dynamic";

export const GET = handle(runsApi.log, async ({ params: { id } }) => {
  const { probe, log } = await getRunLog({ id });
  return { status: 200, type: "text/plain", text: log, headers: { "content-disposition": `inline; filename="${probe}-${id}.log"` } };
});
