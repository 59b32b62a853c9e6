"use server";

import { revalidatePath } from "next/cache";
import { buttonAction, formAction } from "@/lib/auth/action-guard";
import { uuidSchema } from "@/lib/http/params";
import { audit } from "@/lib/server/audit/audit-request";
import { hostNameSchema } from "@/lib/api/schemas/hosts";
import { createHost, reissueRegistration } from "@/lib/server/hosts/create-host";
import type { RegistrationState } from "@/components/hosts/registration-result";
import { describeRegistration } from "@/lib/server/hosts/describe-registration";
import { mediumOverrideSchema, setMediumOverride } from "@/lib/server/hosts/set-medium-override";
import { requestToolsRecheck } from "@/lib/server/hosts/request-tools-recheck";

const shown = (error: string): RegistrationState => ({ error });

export async function createHostAction(_prev: RegistrationState, form: FormData): Promise<RegistrationState> {
  return formAction(form, "OPERATOR", shown, async ({ form, actor }) => {
    const name = hostNameSchema.safeParse(form.get("name"));
    if (!name.success) return { fieldErrors: { name: name.error.issues.map((i) => i.message) } };
    const host = await createHost({ name: name.data, createdById: actor.userId });
    await audit({ actor: actor, action: "host.create", target: { type: "host", id: host.id }, details: { name: host.name } });
    return { host: await describeRegistration({ host }) };
  });
}

export async function reregisterHostAction(_prev: RegistrationState, form: FormData): Promise<RegistrationState> {
  return formAction(form, "OPERATOR", shown, async ({ form, actor }) => {
    const id = uuidSchema("hostId must be a host id.").parse(form.get("hostId"));
    const host = await reissueRegistration({ hostId: id, actor });
    await audit({ actor, action: "host.reregister", target: { type: "host", id }, details: { runsEnded: host.runsEnded } });
    return { host: await describeRegistration({ host }) };
  });
}

export async function setMediumOverrideAction(form: FormData): Promise<void> {
  return buttonAction(form, "OPERATOR", async ({ form, actor }) => {
    const v = mediumOverrideSchema.parse({ hostId: form.get("hostId"), device: form.get("device"), medium: form.get("medium") });
    await setMediumOverride(v);
    await audit({ actor, action: "host.medium", target: { type: "host", id: v.hostId }, details: { device: v.device, medium: v.medium } });
    revalidatePath(`/hosts/${v.hostId}`);
  });
}

// Not audited: it changes nothing on the host, only asks its agent to look again.
export async function recheckToolsAction(form: FormData): Promise<void> {
  return buttonAction(form, "OPERATOR", async ({ form }) => {
    const hostId = uuidSchema().parse(form.get("hostId"));
    await requestToolsRecheck({ hostId });
    revalidatePath(`/hosts/${hostId}`);
  });
}
