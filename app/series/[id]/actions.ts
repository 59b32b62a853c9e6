"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import type { CompareWindowsState } from "@/components/trends/compare-windows-form";
import type { SeriesSettingsState } from "@/components/trends/series-settings-form";
import { formAction } from "@/lib/auth/action-guard";
import { updateSeriesSchema } from "@/lib/api/schemas/series";
import { AppError } from "@/lib/http/app-error";
import { uuidSchema } from "@/lib/http/params";
import { requestIp } from "@/lib/server/audit/audit-request";
import { compareWindows } from "@/lib/server/series/compare-windows";
import { updateSeries } from "@/lib/server/series/update-series";

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_FIELDS = ["aFrom", "aTo", "bFrom", "bTo"] as const;
type DateField = (typeof DATE_FIELDS)[number];

/** A day of the form as the instant it starts (from) or ends (to) in UTC, both ends included. */
function dayBound(value: string, end: boolean): Date {
  return new Date(`${value}T${end ? "23:59:59.999" : "00:00:00.000"}Z`);
}

/** The four dates, each checked on its own so the form can say which one is wrong. */
function readWindows(form: FormData): { asked: Record<DateField, string>; errors: CompareWindowsState["fieldErrors"] } {
  const asked = {} as Record<DateField, string>;
  const errors: NonNullable<CompareWindowsState["fieldErrors"]> = {};
  for (const f of DATE_FIELDS) {
    const raw = form.get(f);
    const v = typeof raw === "string" ? raw.trim() : "";
    asked[f] = v;
    if (!DATE.test(v) || Number.isNaN(dayBound(v, false).getTime())) errors[f] = ["A date (YYYY-MM-DD) is needed."];
  }
  for (const [from, to] of [["aFrom", "aTo"], ["bFrom", "bTo"]] as const) {
    if (!errors[from] && !errors[to] && asked[from] > asked[to]) errors[to] = ["The end is before the start."];
  }
  return { asked, errors };
}

export async function compareWindowsAction(_prev: CompareWindowsState, form: FormData): Promise<CompareWindowsState> {
  return formAction(form, "VIEWER", (error): CompareWindowsState => ({ error }), async ({ form }) => {
    const id = uuidSchema("seriesId must be a series id.").parse(form.get("seriesId"));
    const { asked, errors } = readWindows(form);
    if (errors && Object.keys(errors).length > 0) return { fieldErrors: errors, asked };
    const verdict = await compareWindows({
      id,
      a: { from: dayBound(asked.aFrom, false), to: dayBound(asked.aTo, true) },
      b: { from: dayBound(asked.bFrom, false), to: dayBound(asked.bTo, true) },
    });
    return { verdict, asked };
  });
}

/** A number field of the form: empty stays undefined (zod then names the field), text becomes NaN (refused by zod). */
function numberField(form: FormData, name: string): number | undefined {
  const raw = form.get(name);
  return typeof raw === "string" && raw.trim() !== "" ? Number(raw) : undefined;
}

const settingsFields = ["metricKey", "windowRuns", "thresholdPct"] as const;

export async function updateSeriesAction(_prev: SeriesSettingsState, form: FormData): Promise<SeriesSettingsState> {
  return formAction(form, "OPERATOR", (error): SeriesSettingsState => ({ error }), async ({ form, actor }) => {
    const id = uuidSchema("seriesId must be a series id.").parse(form.get("seriesId"));
    const metric = form.get("metricKey");
    const parsed = updateSeriesSchema.required({ windowRuns: true, thresholdPct: true }).safeParse({
      metricKey: typeof metric === "string" && metric !== "" ? metric : null,
      windowRuns: numberField(form, "windowRuns"),
      thresholdPct: numberField(form, "thresholdPct"),
    });
    if (!parsed.success) return { fieldErrors: fieldErrorsOf(parsed.error) };
    try {
      // The use case records the audit entry; it is given this request's address for it.
      await updateSeries({ id, input: parsed.data, actor, ip: await requestIp().catch(() => null) });
    } catch (err) {
      // A figure the runs do not have is refused by the use case: show it beside the field.
      if (err instanceof AppError && err.code === "BAD_REQUEST" && err.fieldErrors?.metricKey) return { fieldErrors: { metricKey: [err.message] } };
      throw err;
    }
    revalidatePath(`/series/${id}`);
    return { ok: "Saved. The verdict below uses the new settings." };
  });
}

function fieldErrorsOf(error: z.ZodError): SeriesSettingsState["fieldErrors"] {
  const out: NonNullable<SeriesSettingsState["fieldErrors"]> = {};
  for (const issue of error.issues) {
    const field = settingsFields.find((f) => f === issue.path[0]);
    // A number field left empty or given text: say so in words rather than zod's type name.
    const message = issue.code === "invalid_type" ? "A number is needed." : issue.message;
    if (field) (out[field] ??= []).push(message);
  }
  return out;
}
