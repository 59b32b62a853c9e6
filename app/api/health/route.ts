import { serviceApi } from "@/lib/api/service";
import { checkDatabase } from "@/lib/server/health/check-database";
import { handle } from "../handle";

export const dynamic = "force-dynamic";

/** Liveness and database reachability, for load balancers and `docker compose` health checks. */
export const GET = handle(serviceApi.health, async () => {
  if (await checkDatabase()) return { status: 200, json: { status: "ok", db: "ok" } as const };
  return { status: 503, json: { status: "degraded", db: "down" } as const };
});
