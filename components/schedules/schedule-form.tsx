"use client";

import { useActionState, useState } from "react";
import type { ScheduleFormAction, ScheduleFormState } from "./schedule-form-state";

export interface ScheduleFormValues {
  id?: string;
  name: string;
  hostIds: string[];
  probePreset: string;
  target: string;
  cron: string | null;
  intervalMinutes: number | null;
  timezone: string;
  jitterSeconds: number;
  skipIfBusy: boolean;
  quietStart: string | null;
  quietEnd: string | null;
}

/** A field's errors under it, tied to the input by aria-describedby. */
function Errors({ state, field }: { state: ScheduleFormState; field: string }) {
  const msgs = Object.entries(state.fieldErrors ?? {})
    .filter(([k]) => k === field || (field === "params.target" && k.startsWith("params.")))
    .flatMap(([, v]) => v);
  if (msgs.length === 0) return null;
  return (
    <span id={`err-${field}`} className="field-error" data-field={field}>
      {msgs.join(" ")}
    </span>
  );
}

const known = new Set(["name", "hostIds", "probe", "preset", "intervalMinutes", "cron", "timezone", "jitterSeconds", "quietStart", "quietEnd"]);

/**
 * The new-schedule and edit forms: hosts, what runs (probe:preset and target), interval or cron in
 * a time zone, jitter, skip-if-busy, quiet hours. Errors come back per field from the server.
 */
export function ScheduleForm({
  action,
  hosts,
  presets,
  initial,
  submitLabel,
}: {
  action: ScheduleFormAction;
  hosts: { id: string; name: string; online: boolean }[];
  /** "probe:preset" choices; in the edit form only the schedule's probe's presets. */
  presets: { value: string; label: string }[];
  initial: ScheduleFormValues;
  submitLabel: string;
}) {
  const [state, formAction, pending] = useActionState<ScheduleFormState, FormData>(action, {});
  const [mode, setMode] = useState<"interval" | "cron">(initial.cron ? "cron" : "interval");
  const invalid = (f: string) => (state.fieldErrors?.[f] ? { "aria-invalid": true as const, "aria-describedby": `err-${f}` } : {});
  const other = Object.entries(state.fieldErrors ?? {}).filter(([k]) => !known.has(k) && !k.startsWith("params."));
  const editing = !!initial.id;
  return (
    <form action={formAction} className="stack schedule-form" noValidate>
      {initial.id ? <input type="hidden" name="id" value={initial.id} /> : null}
      {state.error ? (
        <div role="alert" className="alert alert-error">
          {state.error}
          {other.length > 0 ? <ul>{other.map(([k, v]) => <li key={k}>{`${k}: ${v.join(" ")}`}</li>)}</ul> : null}
        </div>
      ) : null}
      {state.ok ? (
        <div role="status" className="alert alert-ok">
          {state.ok}
        </div>
      ) : null}
      <label>
        Name
        <input name="name" required maxLength={100} defaultValue={initial.name} placeholder="nightly disk check" {...invalid("name")} />
        <Errors state={state} field="name" />
      </label>
      <fieldset {...invalid("hostIds")}>
        <legend>Hosts</legend>
        {hosts.length === 0 ? <p className="muted">No hosts yet: add one first.</p> : null}
        {hosts.map((h) => (
          <label key={h.id} className="check">
            <input type="checkbox" name="hostIds" value={h.id} defaultChecked={initial.hostIds.includes(h.id)} /> {h.name}
            {h.online ? null : <span className="muted"> (offline)</span>}
          </label>
        ))}
        <Errors state={state} field="hostIds" />
      </fieldset>
      <label>
        {editing ? "Preset" : "Probe and preset"}
        <select name={editing ? "preset" : "probePreset"} defaultValue={initial.probePreset} {...invalid(editing ? "preset" : "probe")}>
          {presets.map((p) => (
            <option key={p.value} value={p.value}>
              {p.label}
            </option>
          ))}
        </select>
        <Errors state={state} field="probe" />
        <Errors state={state} field="preset" />
      </label>
      <label>
        Target directory
        <input name="target" defaultValue={initial.target} placeholder="/srv/probe" {...invalid("params.target")} />
        <Errors state={state} field="params.target" />
      </label>
      <fieldset>
        <legend>When</legend>
        <div role="radiogroup" aria-label="Repeat by" className="row">
          <label className="check">
            <input type="radio" name="mode" value="interval" checked={mode === "interval"} onChange={() => setMode("interval")} /> Every N minutes
          </label>
          <label className="check">
            <input type="radio" name="mode" value="cron" checked={mode === "cron"} onChange={() => setMode("cron")} /> Cron expression
          </label>
        </div>
        {mode === "interval" ? (
          <label>
            Every (minutes)
            <input name="intervalMinutes" type="number" inputMode="numeric" min={1} max={10080} defaultValue={initial.intervalMinutes ?? 60} {...invalid("intervalMinutes")} />
            <Errors state={state} field="intervalMinutes" />
          </label>
        ) : (
          <label>
            Cron (minute hour day month weekday)
            <input name="cron" defaultValue={initial.cron ?? "0 3 * * *"} placeholder="0 3 * * *" spellCheck={false} {...invalid("cron")} />
            <Errors state={state} field="cron" />
          </label>
        )}
        <label>
          Time zone
          <input name="timezone" defaultValue={initial.timezone} placeholder="Europe/Berlin" {...invalid("timezone")} />
          <Errors state={state} field="timezone" />
        </label>
        <label>
          Jitter (seconds, up to 3600)
          <input name="jitterSeconds" type="number" inputMode="numeric" min={0} max={3600} defaultValue={initial.jitterSeconds} {...invalid("jitterSeconds")} />
          <Errors state={state} field="jitterSeconds" />
        </label>
        <label className="check">
          <input type="checkbox" name="skipIfBusy" defaultChecked={initial.skipIfBusy} /> Skip a host that has a run queued or running
        </label>
      </fieldset>
      <fieldset>
        <legend>Quiet hours (optional, in the time zone above)</legend>
        <div className="row">
          <label>
            From
            <input name="quietStart" type="time" defaultValue={initial.quietStart ?? ""} {...invalid("quietStart")} />
            <Errors state={state} field="quietStart" />
          </label>
          <label>
            Until
            <input name="quietEnd" type="time" defaultValue={initial.quietEnd ?? ""} {...invalid("quietEnd")} />
            <Errors state={state} field="quietEnd" />
          </label>
        </div>
      </fieldset>
      <div>
        <button className="btn btn-primary" type="submit" disabled={pending}>
          {pending ? "Saving…" : submitLabel}
        </button>
      </div>
    </form>
  );
}
