import { headers } from "next/headers";
import { clientAddress } from "../../http/client-address";
import { recordAudit, type AuditEntry } from "./record-audit";

/** The client address of the request being served (route handlers and server actions). */
export async function requestIp(): Promise<string> {
  return clientAddress(await headers());
}

/** recordAudit with the address of the current request filled in. */
export async function audit(entry: Omit<AuditEntry, "ip">): Promise<void> {
  await recordAudit({ ...entry, ip: await requestIp().catch(() => null) });
}
