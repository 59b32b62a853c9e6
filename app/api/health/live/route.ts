import { serviceApi } from "@/lib/api/service";
import { handle } from "../../handle";

export const dynamic = "force-dynamic";

/** Liveness: the process answers requests. No database query, so a database outage restarts nothing. */
export const GET = handle(serviceApi.healthLive, async () => ({ status: 200, json: { status: "ok" } as const }));
