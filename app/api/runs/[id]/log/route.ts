import { runsApi } from "@/lib/api/runs";
import { getRunLog } from "@/lib/server/runs/get-run-log";
import { handle } from "../../../handle";

export const dynamic = "force-dynamic";

export const GET = handle(runsApi.log, async ({ params: { id } }) => {
  const { probe, log, prunedAt } = await getRunLog({ id });
  const headers: Record<string, string> = { "content-disposition": `inline; filename="${probe}-${id}.log"` };
  // Scripts tell the retention's sentence from a log by this header.
  if (prunedAt) headers["x-probebook-log-pruned-at"] = prunedAt.toISOString();
  return { status: 200, type: "text/plain", text: log, headers };
});
