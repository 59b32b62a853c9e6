// A schedule's whole definition checked at once (create, and update after the patch is merged):
// every refusal is a field error, so the form and the API name what to change.
import { admitProbe, type Refusal } from "../../../probes/admission";
import { unknownParamErrors } from "../../../probes/param-names";
import { getProbe, probeChoices, resolvePreset } from "../../../probes/catalog";
import { capabilitiesSchema } from "../../../probes/protocol/schemas";
import { createExperimentSchema } from "../../api/schemas/experiments";
import { db } from "../../db";
import { AppError } from "../../http/app-error";
import { cronError, isValidTimezone } from "../../trends/schedule-time";
import { reportedHostFacts } from "../hosts/host-summary";

export interface ScheduleDefinition {
  name: string;
  hostIds: string[];
  kind: "run" | "experiment";
  probe: string;
  preset: string | null;
  params: Record<string, unknown>;
  cron: string | null;
  intervalMinutes: number | null;
  timezone: string;
  jitterSeconds: number;
  skipIfBusy: boolean;
  quietStart: string | null;
  quietEnd: string | null;
}

type FieldErrors = Record<string, string[]>;
const add = (errors: FieldErrors, field: string, message: string) => {
  const list = (errors[field] ??= []);
  if (!list.includes(message)) list.push(message);
};

/** Throws a 400 naming every field at fault; `checkTargets` false skips the per-host admission (an unchanged what-and-where). */
export async function validateScheduleDefinition(def: ScheduleDefinition, { checkTargets = true } = {}): Promise<void> {
  const errors: FieldErrors = {};
  if (def.cron && def.intervalMinutes) add(errors, "cron", "Give either cron or intervalMinutes, not both.");
  if (!def.cron && !def.intervalMinutes) add(errors, "intervalMinutes", "Give either an interval in minutes or a cron expression.");
  const tzOk = isValidTimezone(def.timezone);
  if (!tzOk) add(errors, "timezone", `Unknown time zone "${def.timezone}": use an IANA name such as Europe/Berlin or UTC.`);
  if (def.cron && tzOk) {
    const e = cronError(def.cron, def.timezone);
    if (e) add(errors, "cron", e);
  }
  if (!!def.quietStart !== !!def.quietEnd) add(errors, def.quietStart ? "quietEnd" : "quietStart", "Give both ends of the quiet hours, or neither.");
  else if (def.quietStart && def.quietStart === def.quietEnd) add(errors, "quietEnd", "Quiet hours must end at another time than they start.");

  const hosts = await db().host.findMany({ where: { id: { in: def.hostIds } }, select: { id: true, name: true, capabilities: true, profile: true } });
  const missing = def.hostIds.filter((id) => !hosts.some((h) => h.id === id));
  if (missing.length > 0) add(errors, "hostIds", `No host ${missing.join(", ")}.`);
  if (new Set(def.hostIds).size !== def.hostIds.length) add(errors, "hostIds", "A host is listed twice.");

  const probe = getProbe(def.probe);
  if (!probe) add(errors, "probe", `Unknown probe "${def.probe}": choose ${probeChoices()}.`);
  else if (def.kind === "run") {
    const preset = def.preset === null ? null : resolvePreset(`${def.probe}:${def.preset}`);
    if (def.preset !== null && !preset) add(errors, "preset", `Unknown preset "${def.preset}" for ${def.probe}: choose one of ${Object.keys(probe.presets).join(", ")}.`);
    else if (checkTargets) {
      for (const [k, m] of Object.entries(unknownParamErrors(def.probe, def.params))) add(errors, `params.${k}`, m);
      const params = { ...(preset?.params ?? {}), ...def.params };
      for (const h of hosts) {
        const admitted = admitProbe({ probe: def.probe, params }, reportedHostFacts(h, def.probe));
        if (!admitted.ok) addRefusal(errors, admitted.refusal, h);
      }
    }
  } else {
    // An experiment template is the POST /api/experiments body without hostId; its deeper checks
    // (lab, tunables) depend on the host at the time, so a refusal then is a REFUSED firing.
    const parsed = createExperimentSchema.safeParse({ ...def.params, probe: def.probe, hostId: def.hostIds[0] ?? "00000000-0000-0000-0000-000000000000" });
    if (!parsed.success) for (const i of parsed.error.issues) add(errors, ["params", ...i.path.map(String)].join("."), i.message);
  }
  if (Object.keys(errors).length > 0) {
    const first = Object.entries(errors)[0];
    throw new AppError("BAD_REQUEST", `The schedule is not valid: ${first ? `${first[0]}: ${first[1][0]}` : ""}`, errors);
  }
}

function addRefusal(errors: FieldErrors, r: Refusal, host: { name: string; capabilities: unknown }) {
  switch (r.kind) {
    case "invalid-params":
      for (const [k, msgs] of Object.entries(r.fieldErrors)) for (const m of msgs) add(errors, `params.${k}`, m);
      return;
    case "outside-allowed":
      if (!capabilitiesSchema.safeParse(host.capabilities).success) return add(errors, "params.target", `${host.name}: its agent has not reported its allowed directories yet.`);
      return add(errors, "params.target", `${host.name}: ${r.target} is outside the directories its agent allows (${r.allowedDirs.join(", ") || "none"}).`);
    case "no-space":
      return add(errors, "params.target", `${host.name}: needs ${Math.ceil(r.needsBytes / 2 ** 20)} MiB free in ${r.target}, has ${Math.floor(r.freeBytes / 2 ** 20)} MiB.`);
    case "free-unknown":
      return add(errors, "params.target", `${host.name}: the free space in ${r.target} cannot be read (${r.error}).`);
    case "tool-missing":
      return add(errors, "probe", `${host.name}: ${r.probe.tool.binary} is not installed.`);
    case "unknown-probe":
      return add(errors, "probe", `Unknown probe "${r.probe}".`);
  }
}
