import { runsApi } from "@/lib/api/runs";
import { getRunTelemetry } from "@/lib/server/runs/get-run-telemetry";
import { handle } from "../../../handle";

export const dynamic = "force-dynamic";

/** The machine's telemetry during the run, one sample a second, units in the document. */
export const GET = handle(runsApi.telemetry, async ({ params: { id } }) => ({ status: 200, json: await getRunTelemetry({ runId: id }) }));
