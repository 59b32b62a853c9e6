import { serviceApi } from "@/lib/api/service";
import { checkReadiness } from "@/lib/server/health/check-readiness";
import { handle } from "../../handle";

export const dynamic = "force-dynamic";

/** Readiness for a load balancer: 503 with the reason until the database, migrations and instance are in place. */
export const GET = handle(serviceApi.healthReady, async () => {
  const r = await checkReadiness();
  return { status: r.status === "ready" ? 200 : 503, json: r, headers: { "cache-control": "no-store" } };
});
