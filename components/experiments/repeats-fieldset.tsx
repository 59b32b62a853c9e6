"use client";

// The "Repeats" part of the new-experiment form: how many runs, when to stop, the warm-up.
// Each input shows its own field error (repeats.min, repeats.budgetMin …) from the API answer.

export interface RepeatsValue {
  min: number;
  max: number;
  stop: "precision" | "cv";
  precisionPct: number;
  cvTarget: number;
  budgetMin: number;
  warmup: boolean;
  order: "abba" | "random";
  dropCaches: boolean;
}

export const defaultRepeats = (prefill: { min: number | null; max: number | null; warmup?: boolean | null }): RepeatsValue => ({
  min: prefill.min ?? 4,
  max: prefill.max ?? 10,
  stop: "precision",
  precisionPct: 5,
  cvTarget: 2.5,
  budgetMin: 15,
  warmup: prefill.warmup ?? true,
  order: "abba",
  dropCaches: false,
});

function FieldError({ errors, name }: { errors: Record<string, string[]>; name: string }) {
  const msgs = errors[`repeats.${name}`];
  return msgs?.length ? (
    <span className="field-error small" role="alert" data-testid={`error-repeats.${name}`}>
      {msgs.join(" ")}
    </span>
  ) : null;
}

export function RepeatsFieldset(props: { value: RepeatsValue; onChange: (v: RepeatsValue) => void; errors: Record<string, string[]>; canDropCaches: boolean }) {
  const { value: r, errors } = props;
  const set = (patch: Partial<RepeatsValue>) => props.onChange({ ...r, ...patch });
  const num = (e: React.ChangeEvent<HTMLInputElement>) => Number(e.target.value);
  return (
    <fieldset>
      <legend>Repeats</legend>
      <div className="row">
        <label>
          At least (valid runs per arm)
          <input name="min" type="number" min={3} max={50} value={r.min} onChange={(e) => set({ min: num(e) })} aria-invalid={!!errors["repeats.min"]} />
          <FieldError errors={errors} name="min" />
        </label>
        <label>
          At most (runs per arm)
          <input name="max" type="number" min={3} max={50} value={r.max} onChange={(e) => set({ max: num(e) })} aria-invalid={!!errors["repeats.max"]} />
          <FieldError errors={errors} name="max" />
        </label>
        <label>
          Stop when
          <select name="stop" value={r.stop} onChange={(e) => set({ stop: e.target.value as RepeatsValue["stop"] })}>
            <option value="precision">every interval is within ±…</option>
            <option value="cv">every arm&apos;s CV is under …</option>
          </select>
        </label>
        {r.stop === "precision" ? (
          <label>
            Precision (± % of the ratio)
            <input name="precisionPct" type="number" min={0.5} max={100} step={0.5} value={r.precisionPct} onChange={(e) => set({ precisionPct: num(e) })} aria-invalid={!!errors["repeats.precisionPct"]} />
            <FieldError errors={errors} name="precisionPct" />
          </label>
        ) : (
          <label>
            CV target (%)
            <input name="cvTarget" type="number" min={0.1} max={100} step={0.1} value={r.cvTarget} onChange={(e) => set({ cvTarget: num(e) })} aria-invalid={!!errors["repeats.cvTarget"]} />
            <FieldError errors={errors} name="cvTarget" />
          </label>
        )}
        <label>
          Budget (minutes)
          <input name="budgetMin" type="number" min={1} max={1440} value={r.budgetMin} onChange={(e) => set({ budgetMin: num(e) })} aria-invalid={!!errors["repeats.budgetMin"]} />
          <FieldError errors={errors} name="budgetMin" />
        </label>
        <label>
          Order
          <select name="order" value={r.order} onChange={(e) => set({ order: e.target.value as RepeatsValue["order"] })}>
            <option value="abba">A B, B A, … (alternating)</option>
            <option value="random">Shuffled blocks (seeded)</option>
          </select>
        </label>
      </div>
      <p className="muted small">
        Runs stop at the precision (or CV) target once every arm has the minimum of valid runs, when the budget is spent, or at the maximum, whichever comes first. The rule never
        looks at whether a difference shows, only at how wide the intervals are.
      </p>
      <label className="inline">
        <input type="checkbox" name="warmup" checked={r.warmup} onChange={(e) => set({ warmup: e.target.checked })} /> Warm-up: one extra run per arm first, shown but not counted
      </label>
      <label className="inline">
        <input type="checkbox" name="dropCaches" checked={r.dropCaches} disabled={!props.canDropCaches} onChange={(e) => set({ dropCaches: e.target.checked })} /> Drop the page cache
        before each run
        {props.canDropCaches ? "" : <span className="muted small"> — needs the agent&apos;s --allow-tunable vm.drop_caches</span>}
      </label>
      <FieldError errors={errors} name="dropCaches" />
    </fieldset>
  );
}
