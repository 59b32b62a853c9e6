"use server";

import { revalidatePath } from "next/cache";
import { requireActor } from "@/lib/auth/actor";
import { AppError } from "@/lib/http/app-error";
import { uuidSchema } from "@/lib/http/params";
import { createHost, hostNameSchema, reissueRegistration } from "@/lib/server/hosts/create-host";
import { describeRegistration, type HostRegistration } from "@/lib/server/hosts/describe-registration";
import { mediumOverrideSchema, setMediumOverride } from "@/lib/server/hosts/set-medium-override";

export interface RegistrationState {
  error?: string;
  fieldErrors?: { name?: string[] };
  host?: HostRegistration;
}

async function asState(fn: () => Promise<RegistrationState>): Promise<RegistrationState> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof AppError) return { error: err.message };
    throw err;
  }
}

export async function createHostAction(_prev: RegistrationState, form: FormData): Promise<RegistrationState> {
  return asState(async () => {
    const actor = await requireActor("OPERATOR");
    const name = hostNameSchema.safeParse(form.get("name"));
    if (!name.success) return { fieldErrors: { name: name.error.issues.map((i) => i.message) } };
    return { host: await describeRegistration({ host: await createHost({ name: name.data, createdById: actor.userId }) }) };
  });
}

export async function reregisterHostAction(_prev: RegistrationState, form: FormData): Promise<RegistrationState> {
  return asState(async () => {
    await requireActor("OPERATOR");
    const id = uuidSchema().parse(form.get("hostId"));
    return { host: await describeRegistration({ host: await reissueRegistration(id) }) };
  });
}

export async function setMediumOverrideAction(form: FormData): Promise<void> {
  await requireActor("OPERATOR");
  const v = mediumOverrideSchema.parse({ hostId: form.get("hostId"), device: form.get("device"), medium: form.get("medium") });
  await setMediumOverride(v);
  revalidatePath(`/hosts/${v.hostId}`);
}
