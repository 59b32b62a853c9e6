"use client";

import { useActionState } from "react";
import type { HeadlineChoice } from "./types";

export interface SeriesSettingsState {
  error?: string;
  ok?: string;
  fieldErrors?: Partial<Record<"metricKey" | "windowRuns" | "thresholdPct", string[]>>;
}

export type SeriesSettingsAction = (prev: SeriesSettingsState, form: FormData) => Promise<SeriesSettingsState>;

function Errors({ id, errors }: { id: string; errors?: string[] }) {
  return errors ? (
    <span id={id} className="field-error">
      {errors.join(" ")}
    </span>
  ) : null;
}

/** What a series follows and how hard it looks: the figure, the runs per window, the threshold an alert needs. */
export function SeriesSettingsForm({
  seriesId,
  metrics,
  current,
  save,
}: {
  seriesId: string;
  metrics: HeadlineChoice[];
  current: { metricKey: string | null; windowRuns: number; thresholdPct: number };
  save: SeriesSettingsAction;
}) {
  const [state, action, pending] = useActionState<SeriesSettingsState, FormData>(save, {});
  const fe = state.fieldErrors ?? {};
  return (
    <form action={action} className="stack" data-testid="series-settings">
      <input type="hidden" name="seriesId" value={seriesId} />
      <label>
        Figure to follow
        <select name="metricKey" defaultValue={current.metricKey ?? ""} aria-invalid={fe.metricKey ? true : undefined} aria-describedby={fe.metricKey ? "settings-metric-error" : undefined}>
          <option value="">The probe&apos;s first headline figure</option>
          {metrics.map((m) => (
            <option key={m.key} value={m.key}>
              {m.noun} ({m.unit}, {m.betterWhen} is better)
            </option>
          ))}
        </select>
        <Errors id="settings-metric-error" errors={fe.metricKey} />
      </label>
      <label>
        Runs per window (N: the last N valid runs against the N before)
        <input
          type="number"
          name="windowRuns"
          min={3}
          max={50}
          step={1}
          defaultValue={current.windowRuns}
          required
          aria-invalid={fe.windowRuns ? true : undefined}
          aria-describedby={fe.windowRuns ? "settings-window-error" : undefined}
        />
        <Errors id="settings-window-error" errors={fe.windowRuns} />
      </label>
      <label>
        Threshold (%: the whole interval must lie beyond it to alert)
        <input
          type="number"
          name="thresholdPct"
          min={0.5}
          max={90}
          step={0.5}
          defaultValue={current.thresholdPct}
          required
          aria-invalid={fe.thresholdPct ? true : undefined}
          aria-describedby={fe.thresholdPct ? "settings-threshold-error" : undefined}
        />
        <Errors id="settings-threshold-error" errors={fe.thresholdPct} />
      </label>
      {state.error ? (
        <p className="field-error" role="alert">
          {state.error}
        </p>
      ) : null}
      {state.ok ? (
        <p className="alert alert-ok" role="status" data-testid="settings-saved">
          {state.ok}
        </p>
      ) : null}
      <p>
        <button className="btn" type="submit" disabled={pending}>
          Save settings
        </button>
      </p>
    </form>
  );
}
