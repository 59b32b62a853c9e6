"use client";

import { useActionState } from "react";
import type { WindowVerdict } from "./types";
import { VerdictCard } from "./verdict-card";

export interface CompareWindowsState {
  error?: string;
  fieldErrors?: Partial<Record<"aFrom" | "aTo" | "bFrom" | "bTo", string[]>>;
  verdict?: WindowVerdict;
  /** The windows the verdict is about, as the form sent them (YYYY-MM-DD). */
  asked?: { aFrom: string; aTo: string; bFrom: string; bTo: string };
}

/** The page passes its server action in (components/ never import app/). */
export type CompareWindowsAction = (prev: CompareWindowsState, form: FormData) => Promise<CompareWindowsState>;

function DateField({ name, label, value, errors }: { name: "aFrom" | "aTo" | "bFrom" | "bTo"; label: string; value: string; errors?: string[] }) {
  const id = `compare-${name}`;
  return (
    <label htmlFor={id}>
      {label}
      <input id={id} type="date" name={name} defaultValue={value} required aria-invalid={errors ? true : undefined} aria-describedby={errors ? `${id}-error` : undefined} />
      {errors ? (
        <span id={`${id}-error`} className="field-error">
          {errors.join(" ")}
        </span>
      ) : null}
    </label>
  );
}

/** Two finish-date ranges of one series, compared as the current verdict compares its windows (dates in UTC, both ends included). */
export function CompareWindowsForm({ seriesId, defaults, compare }: { seriesId: string; defaults: { aFrom: string; aTo: string; bFrom: string; bTo: string }; compare: CompareWindowsAction }) {
  const [state, action, pending] = useActionState<CompareWindowsState, FormData>(compare, {});
  const shown = state.asked ?? defaults;
  const fe = state.fieldErrors ?? {};
  return (
    <div data-testid="compare-windows">
      <form action={action} className="window-form">
        <input type="hidden" name="seriesId" value={seriesId} />
        <div className="window-pair">
          <fieldset className="window">
            <legend>Window A (before)</legend>
            <DateField name="aFrom" label="From" value={shown.aFrom} errors={fe.aFrom} />
            <DateField name="aTo" label="To" value={shown.aTo} errors={fe.aTo} />
          </fieldset>
          <fieldset className="window">
            <legend>Window B (after)</legend>
            <DateField name="bFrom" label="From" value={shown.bFrom} errors={fe.bFrom} />
            <DateField name="bTo" label="To" value={shown.bTo} errors={fe.bTo} />
          </fieldset>
        </div>
        {state.error ? (
          <p className="field-error" role="alert">
            {state.error}
          </p>
        ) : null}
        <p>
          <button className="btn" type="submit" disabled={pending}>
            {pending ? "Comparing…" : "Compare"}
          </button>
        </p>
      </form>
      {state.verdict && state.asked ? (
        <VerdictCard
          testId="compare-verdict"
          title={`${state.asked.aFrom} – ${state.asked.aTo} against ${state.asked.bFrom} – ${state.asked.bTo}`}
          verdict={state.verdict}
        />
      ) : null}
    </div>
  );
}
