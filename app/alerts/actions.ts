"use server";

import { revalidatePath } from "next/cache";
import { buttonAction } from "@/lib/auth/action-guard";
import { uuidSchema } from "@/lib/http/params";
import { acknowledgeAlert } from "@/lib/server/alerts/acknowledge-alert";

/** Used by /alerts, a series page and the home page's panel: each shows the alert's state. */
export async function acknowledgeAlertAction(form: FormData): Promise<void> {
  return buttonAction(form, "OPERATOR", async ({ form, actor }) => {
    const id = uuidSchema("alertId must be an alert id.").parse(form.get("alertId"));
    await acknowledgeAlert({ id, actor });
    // The alert shows on several pages and in the header's count: refresh them all.
    revalidatePath("/", "layout");
  });
}
