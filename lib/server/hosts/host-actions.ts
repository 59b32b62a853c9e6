"use server";

import { z } from "zod";
import { requireActor } from "../../auth/actor";
import { db } from "../../db";
import { AppError } from "../../http/app-error";
import { uuidSchema } from "../../http/params";
import { audit } from "../audit/audit-request";
import { agentCommand, bundledAgentCommand } from "./agent-command";
import { createHost, hostNameSchema, reissueRegistration } from "./create-host";
import { serverUrl } from "./server-url";

export interface RegistrationState {
  error?: string;
  fieldErrors?: { name?: string[] };
  host?: { id: string; name: string; token: string; expiresAt: string; command: string; bundledCommand: string };
}

async function asState(fn: () => Promise<RegistrationState>): Promise<RegistrationState> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof AppError) return { error: err.message };
    throw err;
  }
}

/** What the page shows once: the token and the commands that use it. */
async function registered(host: { id: string; name: string; registrationToken: string; registrationExpiresAt: Date | null }): Promise<RegistrationState> {
  const url = await serverUrl();
  return {
    host: {
      id: host.id,
      name: host.name,
      token: host.registrationToken,
      expiresAt: (host.registrationExpiresAt ?? new Date()).toISOString(),
      command: agentCommand(url, host.registrationToken),
      bundledCommand: bundledAgentCommand(url, host.registrationToken),
    },
  };
}

export async function createHostAction(_prev: RegistrationState, form: FormData): Promise<RegistrationState> {
  return asState(async () => {
    const actor = await requireActor("OPERATOR");
    const name = hostNameSchema.safeParse(form.get("name"));
    if (!name.success) return { fieldErrors: { name: name.error.issues.map((i) => i.message) } };
    const host = await createHost({ name: name.data, createdById: actor.userId });
    await audit({ actor, action: "host.create", target: { type: "host", id: host.id }, details: { name: host.name } });
    return registered(host);
  });
}

export async function reregisterHostAction(_prev: RegistrationState, form: FormData): Promise<RegistrationState> {
  return asState(async () => {
    const actor = await requireActor("OPERATOR");
    const id = uuidSchema().parse(form.get("hostId"));
    const host = await reissueRegistration(id, actor.userId);
    await audit({ actor, action: "host.reregister", target: { type: "host", id } });
    return registered(host);
  });
}

const overrideSchema = z.object({ hostId: uuidSchema(), device: z.string().regex(/^[a-zA-Z0-9_.-]{1,64}$/), medium: z.enum(["auto", "ssd", "disk", "memory"]) });

/** Corrects the medium of a device (VMs report rotational wrongly); applies to runs finished afterwards. */
export async function setMediumOverrideAction(form: FormData): Promise<void> {
  const actor = await requireActor("OPERATOR");
  const v = overrideSchema.parse({ hostId: form.get("hostId"), device: form.get("device"), medium: form.get("medium") });
  const host = await db().host.findUniqueOrThrow({ where: { id: v.hostId }, select: { mediumOverrides: true } });
  const current = (host.mediumOverrides ?? {}) as Record<string, string>;
  const next = { ...current };
  if (v.medium === "auto") delete next[v.device];
  else next[v.device] = v.medium;
  await db().host.update({ where: { id: v.hostId }, data: { mediumOverrides: next } });
  await audit({ actor, action: "host.medium", target: { type: "host", id: v.hostId }, details: { device: v.device, medium: v.medium } });
  const { revalidatePath } = await import("next/cache");
  revalidatePath(`/hosts/${v.hostId}`);
}
