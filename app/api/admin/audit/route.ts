import { serviceApi } from "@/lib/api/service";
import { listAudit } from "@/lib/server/audit/list-audit";
import { handle } from "../../handle";

export const dynamic = "force-dynamic";

/** Admins: the audit log as JSON, filtered like /admin/audit (?action=&actor=&target=&ip=&from=&to=&limit=). */
export const GET = handle(serviceApi.audit, async ({ query }) => ({
  status: 200,
  json: { events: await listAudit(query) },
  headers: { "cache-control": "private, no-store" },
}));
