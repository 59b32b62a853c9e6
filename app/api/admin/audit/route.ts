import { requireActor } from "@/lib/auth/actor";
import { route } from "@/lib/http/handle-route";
import { listAudit, parseAuditQuery } from "@/lib/server/audit/list-audit";

export const dynamic = "force-dynamic";

/** Admins: the audit log as JSON, filtered like /admin/audit (?action=&actor=&target=&ip=&from=&to=&limit=). */
export const GET = route(async (req: Request) => {
  await requireActor("ADMIN");
  const events = await listAudit(parseAuditQuery(new URL(req.url).searchParams));
  return Response.json({ events }, { headers: { "cache-control": "private, no-store" } });
});
