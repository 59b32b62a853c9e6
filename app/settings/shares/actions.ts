"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { buttonAction } from "@/lib/auth/action-guard";
import { audit } from "@/lib/server/audit/audit-request";
import { revokeComparison } from "@/lib/server/comparisons/revoke-comparison";

/** The "Withdraw" button on /settings/shares. */
export async function revokeShareAction(form: FormData): Promise<void> {
  return buttonAction(form, "VIEWER", async ({ form, actor }) => {
    const slug = z.string().max(64).parse(form.get("slug"));
    const r = await revokeComparison(slug, actor);
    await audit({ actor, action: "share.revoke", target: { type: "comparison", id: r.id }, details: { slug } });
    revalidatePath("/settings/shares");
  });
}
