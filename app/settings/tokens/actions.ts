"use server";

import { revalidatePath } from "next/cache";
import { buttonAction, formAction } from "@/lib/auth/action-guard";
import type { FormState } from "@/lib/http/form-state";
import { uuidSchema } from "@/lib/http/params";
import { audit } from "@/lib/server/audit/audit-request";
import { createApiToken, expiresInDaysSchema } from "@/lib/server/tokens/create-api-token";
import { revokeApiToken } from "@/lib/server/tokens/revoke-api-token";

export async function createTokenAction(_prev: FormState, form: FormData): Promise<FormState> {
  return formAction(form, "VIEWER", (error): FormState => ({ error }), async ({ form, actor }) => {
    const expiresInDays = expiresInDaysSchema.parse(form.get("expiresInDays") || undefined);
    const t = await createApiToken({ userId: actor.userId, name: String(form.get("name") ?? ""), expiresInDays });
    await audit({ actor: actor, action: "token.create", target: { type: "api-token", id: t.id }, details: { name: t.name, expiresAt: t.expiresAt?.toISOString() ?? null } });
    revalidatePath("/settings/tokens");
    const until = t.expiresAt ? ` It expires on ${t.expiresAt.toISOString().slice(0, 10)}.` : "";
    return { ok: `Token "${t.name}" created. Copy it now: it is not shown again.${until}`, token: t.token };
  });
}

export async function revokeTokenAction(form: FormData): Promise<void> {
  return buttonAction(form, "VIEWER", async ({ form, actor }) => {
    const tokenId = uuidSchema().parse(form.get("tokenId"));
    await revokeApiToken({ tokenId, actor });
    await audit({ actor, action: "token.revoke", target: { type: "api-token", id: tokenId } });
    revalidatePath("/settings/tokens");
  });
}
