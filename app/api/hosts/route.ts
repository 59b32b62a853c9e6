import { requireActor } from "@/lib/auth/actor";
import { parseJsonBody, route } from "@/lib/http/handle-route";
import { audit } from "@/lib/server/audit/audit-request";
import { createHost, createHostSchema } from "@/lib/server/hosts/create-host";
import { listHosts } from "@/lib/server/hosts/list-hosts";

export const dynamic = "force-dynamic";

export const GET = route(async () => {
  await requireActor("VIEWER");
  return Response.json({ hosts: await listHosts() });
});

export const POST = route(async (req: Request) => {
  const actor = await requireActor("OPERATOR");
  const { name } = await parseJsonBody(req, createHostSchema);
  const host = await createHost({ name, createdById: actor.userId });
  await audit({ actor, action: "host.create", target: { type: "host", id: host.id }, details: { name: host.name } });
  return Response.json({ id: host.id, name: host.name, registrationToken: host.registrationToken, expiresAt: host.registrationExpiresAt }, { status: 201 });
});
