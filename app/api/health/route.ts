import { db } from "@/lib/db";

export const dynamic = "force-dynamic";

/** Liveness and database reachability, for load balancers and `docker compose` health checks. */
export async function GET() {
  try {
    await db().$queryRaw`SELECT 1`;
    return Response.json({ status: "ok", db: "ok" });
  } catch {
    return Response.json({ status: "degraded", db: "down" }, { status: 503 });
  }
}
