import { requireActor } from "@/lib/auth/actor";
import { db } from "@/lib/db";
import { route } from "@/lib/http/handle-route";

export const dynamic = "force-dynamic";

export const GET = route(async () => {
  await requireActor("VIEWER");
  const hosts = await db().host.findMany({
    orderBy: { name: "asc" },
    select: { id: true, name: true, lastSeenAt: true, createdAt: true, capabilities: true, profile: true },
  });
  return Response.json({ hosts });
});
