import { requireActor } from "@/lib/auth/actor";
import { db } from "@/lib/db";
import { AppError } from "@/lib/http/app-error";
import { route } from "@/lib/http/handle-route";
import { uuidParam } from "@/lib/http/params";

export const dynamic = "force-dynamic";

export const GET = route(async (_req: Request, ctx: { params: Promise<{ id: string }> }) => {
  await requireActor("VIEWER");
  const id = uuidParam((await ctx.params).id, "host");
  const host = await db().host.findUnique({
    where: { id },
    select: {
      id: true,
      name: true,
      lastSeenAt: true,
      agentRegisteredAt: true,
      registrationExpiresAt: true,
      createdAt: true,
      capabilities: true,
      profile: true,
      mediumOverrides: true,
    },
  });
  if (!host) throw new AppError("NOT_FOUND", `No host ${id}.`);
  return Response.json(host);
});
