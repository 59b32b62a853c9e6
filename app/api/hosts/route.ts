import { hostsApi } from "@/lib/api/hosts";
import { audit } from "@/lib/server/audit/audit-request";
import { createHost } from "@/lib/server/hosts/create-host";
import { hostToJson } from "@/lib/server/hosts/host-json";
import { listHosts } from "@/lib/server/hosts/list-hosts";
import { handle } from "../handle";

export const dynamic = "force-dynamic";

export const GET = handle(hostsApi.list, async () => ({ status: 200, json: { hosts: (await listHosts()).map(hostToJson) } }));

export const POST = handle(hostsApi.create, async ({ actor, body: { name } }) => {
  const host = await createHost({ name, createdById: actor.userId });
  await audit({ actor, action: "host.create", target: { type: "host", id: host.id }, details: { name: host.name } });
  return { status: 201, json: { id: host.id, name: host.name, registrationToken: host.registrationToken, expiresAt: host.registrationExpiresAt?.toISOString() ?? null } };
});
