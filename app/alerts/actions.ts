"use server";

import { revalidatePath } from "next/cache";
import { buttonAction } from "@/lib/auth/action-guard";
import { uuidSchema } from "@/lib/http/params";
import { acknowledgeAlert } from "@/lib/server/alerts/acknowledge-alert";
import { requestIp } from "@/lib/server/audit/audit-request";

/** Used by /alerts, a series page and the home page's panel: each shows the alert's state. */
export async function acknowledgeAlertAction(form: FormData): Promise<void> {
  return buttonAction(form, "OPERATOR", async ({ form, actor }) => {
    const id = uuidSchema("alertId must be an alert id.").parse(form.get("alertId"));
    // The use case records the audit entry, with this request's address.
    await acknowledgeAlert({ id, actor, ip: await requestIp().catch(() => null) });
    // The alert shows on several pages and in the header's count: refresh them all.
    revalidatePath("/", "layout");
  });
}
