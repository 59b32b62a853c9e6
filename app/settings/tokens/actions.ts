"use server";

import { revalidatePath } from "next/cache";
import { requireActor } from "@/lib/auth/actor";
import { formState, type FormState } from "@/lib/http/form-state";
import { uuidSchema } from "@/lib/http/params";
import { createApiToken } from "@/lib/server/tokens/create-api-token";
import { revokeApiToken } from "@/lib/server/tokens/revoke-api-token";

export async function createTokenAction(_prev: FormState, form: FormData): Promise<FormState> {
  return formState(async () => {
    const actor = await requireActor("VIEWER");
    const t = await createApiToken({ userId: actor.userId, name: String(form.get("name") ?? "") });
    revalidatePath("/settings/tokens");
    return { ok: `Token "${t.name}" created. Copy it now: it is not shown again.`, token: t.token };
  });
}

export async function revokeTokenAction(form: FormData): Promise<void> {
  const actor = await requireActor("VIEWER");
  await revokeApiToken({ tokenId: uuidSchema().parse(form.get("tokenId")), actor });
  revalidatePath("/settings/tokens");
}
