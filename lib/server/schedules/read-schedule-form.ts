// The schedule form (components/schedules/schedule-form.tsx) as the API's bodies, so the pages'
// actions go through the same schemas and use cases as POST and PATCH /api/schedules.
import { z } from "zod";

const text = (form: FormData, name: string) => {
  const v = form.get(name);
  return typeof v === "string" ? v.trim() : "";
};

/** The fields both forms share: hosts, preset, target, timing, quiet hours. */
function common(form: FormData) {
  const mode = text(form, "mode") === "cron" ? "cron" : "interval";
  const every = text(form, "intervalMinutes");
  const jitter = text(form, "jitterSeconds");
  return {
    name: text(form, "name"),
    hostIds: form.getAll("hostIds").filter((v): v is string => typeof v === "string"),
    target: text(form, "target"),
    cron: mode === "cron" ? text(form, "cron") : undefined,
    // A number the schema can refuse by name ("1.5", "abc" → NaN → "expected number").
    intervalMinutes: mode === "interval" ? (every === "" ? undefined : Number(every)) : undefined,
    timezone: text(form, "timezone") || "UTC",
    jitterSeconds: jitter === "" ? 0 : Number(jitter),
    skipIfBusy: form.get("skipIfBusy") === "on",
    quietStart: text(form, "quietStart") || undefined,
    quietEnd: text(form, "quietEnd") || undefined,
  };
}

/** POST /api/schedules's body from the new-schedule form ("probe:preset" in one select). */
export function createBodyFromForm(form: FormData): Record<string, unknown> {
  const c = common(form);
  const [probe = "", preset] = text(form, "probePreset").split(":");
  const { target, ...rest } = c;
  return { ...rest, kind: "run", probe, ...(preset ? { preset } : {}), params: target ? { target } : {} };
}

/** PATCH /api/schedules/{id}'s body from the edit form; `params` are the saved ones with the target replaced. */
export function updateBodyFromForm(form: FormData, saved: { params: Record<string, unknown> }): Record<string, unknown> {
  const c = common(form);
  const preset = text(form, "preset");
  const { target, ...rest } = c;
  return {
    ...rest,
    preset: preset || null,
    params: { ...saved.params, ...(target ? { target } : {}) },
    cron: c.cron ?? null,
    intervalMinutes: c.intervalMinutes ?? null,
    quietStart: c.quietStart ?? null,
    quietEnd: c.quietEnd ?? null,
  };
}

/** A zod refusal as field errors keyed like the API's (params.target, hostIds). */
export function zodFieldErrors(err: z.ZodError): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const i of err.issues) (out[i.path.map(String).join(".") || "form"] ??= []).push(i.message);
  return out;
}
