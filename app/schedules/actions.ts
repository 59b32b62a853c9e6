"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { buttonAction, formAction } from "@/lib/auth/action-guard";
import { createScheduleSchema, updateScheduleSchema } from "@/lib/api/schemas/schedules";
import { AppError } from "@/lib/http/app-error";
import { uuidSchema } from "@/lib/http/params";
import { audit } from "@/lib/server/audit/audit-request";
import { createSchedule } from "@/lib/server/schedules/create-schedule";
import { getSchedule } from "@/lib/server/schedules/get-schedule";
import { setSchedulePaused } from "@/lib/server/schedules/pause-schedule";
import { createBodyFromForm, updateBodyFromForm, zodFieldErrors } from "@/lib/server/schedules/read-schedule-form";
import { updateSchedule } from "@/lib/server/schedules/update-schedule";
import type { ScheduleFormState } from "@/components/schedules/schedule-form-state";

const shown = (error: string): ScheduleFormState => ({ error });

/** A use case's refusal with its field errors kept for the form (formAction alone would keep only the message). */
async function withFieldErrors(fn: () => Promise<ScheduleFormState>): Promise<ScheduleFormState> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof AppError && err.code === "BAD_REQUEST" && err.fieldErrors) return { error: "Check the fields marked below.", fieldErrors: err.fieldErrors };
    throw err;
  }
}

export async function createScheduleAction(_prev: ScheduleFormState, form: FormData): Promise<ScheduleFormState> {
  let id = "";
  const state = await formAction(form, "OPERATOR", shown, async ({ form, actor }) =>
    withFieldErrors(async () => {
      const input = createScheduleSchema.safeParse(createBodyFromForm(form));
      if (!input.success) return { error: "Check the fields marked below.", fieldErrors: zodFieldErrors(input.error) };
      id = (await createSchedule({ input: input.data, createdById: actor.userId })).id;
      await audit({ actor, action: "schedule.create", target: { type: "schedule", id }, details: { name: input.data.name, hosts: input.data.hostIds.length, probe: input.data.probe, preset: input.data.preset ?? null } });
      return {};
    }),
  );
  if (id) redirect(`/schedules/${id}`);
  return state;
}

export async function updateScheduleAction(_prev: ScheduleFormState, form: FormData): Promise<ScheduleFormState> {
  return formAction(form, "OPERATOR", shown, async ({ form, actor }) =>
    withFieldErrors(async () => {
      const id = uuidSchema("id must be a schedule id.").parse(form.get("id"));
      const saved = await getSchedule({ id });
      const input = updateScheduleSchema.safeParse(updateBodyFromForm(form, saved));
      if (!input.success) return { error: "Check the fields marked below.", fieldErrors: zodFieldErrors(input.error) };
      const { changed } = await updateSchedule({ id, input: input.data, actor });
      await audit({ actor, action: "schedule.update", target: { type: "schedule", id }, details: { changed } });
      revalidatePath(`/schedules/${id}`);
      return { ok: "Saved." };
    }),
  );
}

export async function setPausedAction(form: FormData): Promise<void> {
  return buttonAction(form, "OPERATOR", async ({ form, actor }) => {
    const id = uuidSchema("id must be a schedule id.").parse(form.get("id"));
    const paused = form.get("paused") === "true";
    await setSchedulePaused({ id, paused, actor });
    await audit({ actor, action: paused ? "schedule.pause" : "schedule.resume", target: { type: "schedule", id } });
    revalidatePath("/schedules");
    revalidatePath(`/schedules/${id}`);
  });
}
