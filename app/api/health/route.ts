import { checkDatabase } from "@/lib/server/health/check-database";

export const dynamic = "force-dynamic";

/** Liveness and database reachability, for load balancers and `docker compose` health checks. */
export async function GET() {
  if (await checkDatabase()) return Response.json({ status: "ok", db: "ok" });
  return Response.json({ status: "degraded", db: "down" }, { status: 503 });
}
