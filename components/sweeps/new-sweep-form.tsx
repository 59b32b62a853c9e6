"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent, type ReactNode } from "react";
import type { LaunchHostOption } from "@/lib/server/hosts/list-launch-hosts";
import type { SteadyStateSpec, SweepWorkload } from "@/lib/sweeps/types";
import { BS_CHOICES, defaultSweepValues, durationText, errorsFor, JOB_CHOICES, pointCount, QD_CHOICES, sweepRequest, unplacedErrors, worstCaseSec, type SweepFormValues } from "./sweep-form-state";
import { FieldError, FormError, SubmitRow } from "@/components/form-error";
import { steadyText } from "./sweep-text";
import styles from "./sweeps.module.css";

type Errors = Record<string, string[]>;

function FieldErrors({ errors, field }: { errors: Errors; field: string }) {
  return <FieldError messages={errorsFor(errors, field)} id={`err-${field}`} field={field} />;
}

const invalid = (errors: Errors, field: string) => (errorsFor(errors, field).length > 0 ? { "aria-invalid": true as const, "aria-describedby": `err-${field}` } : {});

/** A group of toggle chips (checkboxes): keyboard-usable as plain checkboxes, wrapping at any width. */
function Toggles({ legend, name, choices, unit, value, onChange, errors, hint }: { legend: string; name: string; choices: readonly number[]; unit?: string; value: number[]; onChange: (v: number[]) => void; errors: Errors; hint?: ReactNode }) {
  return (
    <fieldset className={styles.fieldset} data-testid={`toggles-${name}`} {...invalid(errors, name)}>
      <legend>{legend}</legend>
      <div className={styles.toggles}>
        {choices.map((c) => (
          <label key={c} className={styles.toggle}>
            <input type="checkbox" name={name} value={c} checked={value.includes(c)} onChange={(e) => onChange(e.target.checked ? [...value, c].sort((a, b) => a - b) : value.filter((x) => x !== c))} />
            {c}
            {unit ? ` ${unit}` : ""}
          </label>
        ))}
      </div>
      {hint ? <span className="muted small">{hint}</span> : null}
      <FieldErrors errors={errors} field={name} />
    </fieldset>
  );
}

const num = (s: string) => (s.trim() === "" ? Number.NaN : Number(s));

/**
 * A new sweep: one fio workload over a grid of queue depths × job counts (× block sizes) on one
 * target. The point count and the longest it can take follow the choices; the API's refusals
 * come back beside their fields, and every value stays as typed.
 */
export function NewSweepForm({ hosts, initialHostId }: { hosts: LaunchHostOption[]; initialHostId: string | null }) {
  const router = useRouter();
  const first = hosts.find((h) => h.id === initialHostId) ?? hosts[0];
  const [v, setV] = useState<SweepFormValues>(() => defaultSweepValues(first?.id ?? "", first?.targets[0]?.path ?? ""));
  const [errors, setErrors] = useState<Errors>({});
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const host = hosts.find((h) => h.id === v.hostId);
  const set = <K extends keyof SweepFormValues>(k: K, val: SweepFormValues[K]) => setV((cur) => ({ ...cur, [k]: val }));
  const setSteady = <K extends keyof SteadyStateSpec>(k: K, val: SteadyStateSpec[K]) => setV((cur) => ({ ...cur, steadyState: { ...cur.steadyState, [k]: val } }));
  const n = pointCount(v);
  const worst = worstCaseSec(v);
  const missing = host?.missingTools.fio;
  const psyncDeep = v.ioengine === "psync" && v.iodepths.some((q) => q > 1);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    setErrors({});
    setPending(true);
    try {
      const r = await fetch("/api/experiments", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(sweepRequest(v)) });
      const body = (await r.json().catch(() => ({}))) as { id?: string; error?: string; fieldErrors?: Errors };
      if (r.status === 201 && body.id) return router.push(`/experiments/${body.id}`);
      setError(body.error ?? `The sweep could not start (HTTP ${r.status}).`);
      setErrors(body.fieldErrors ?? {});
    } catch {
      setError("The server could not be reached.");
    } finally {
      setPending(false);
    }
  }

  const unplaced = new Set(unplacedErrors(errors).map(([k]) => k));
  return (
    <form className="stack" style={{ maxWidth: "40rem" }} onSubmit={onSubmit} noValidate data-testid="sweep-form">
      <FormError error={error} fieldErrors={errors} placed={(k) => !unplaced.has(k)} testId="sweep-form-error" />
      <label>
        Host
        <select
          name="hostId"
          value={v.hostId}
          {...invalid(errors, "hostId")}
          onChange={(e) => {
            const next = hosts.find((h) => h.id === e.target.value);
            setV((cur) => ({ ...cur, hostId: e.target.value, target: next?.targets[0]?.path ?? "" }));
          }}
        >
          {hosts.map((h) => (
            <option key={h.id} value={h.id}>
              {h.name}
            </option>
          ))}
        </select>
        <FieldErrors errors={errors} field="hostId" />
      </label>
      <label>
        Target directory
        <select name="target" value={v.target} onChange={(e) => set("target", e.target.value)} {...invalid(errors, "target")}>
          {(host?.targets ?? []).map((t) => (
            <option key={t.path} value={t.path}>
              {t.path} — {t.fsType ?? "?"} · {t.medium ?? "?"}
            </option>
          ))}
        </select>
        <FieldErrors errors={errors} field="target" />
      </label>

      <fieldset className={styles.fieldset}>
        <legend>Workload (the same at every point)</legend>
        <label>
          Pattern (rw)
          <select name="rw" value={v.rw} onChange={(e) => set("rw", e.target.value as SweepWorkload["rw"])} {...invalid(errors, "rw")}>
            <option value="randread">randread</option>
            <option value="randwrite">randwrite</option>
            <option value="randrw">randrw (mixed)</option>
            <option value="read">read (sequential)</option>
            <option value="write">write (sequential)</option>
          </select>
          <FieldErrors errors={errors} field="rw" />
        </label>
        {v.rw === "randrw" ? (
          <label>
            Reads in the mix (rwmixread, %)
            <input name="rwmixread" type="number" inputMode="numeric" min={0} max={100} value={Number.isNaN(v.rwmixread) ? "" : v.rwmixread} onChange={(e) => set("rwmixread", num(e.target.value))} {...invalid(errors, "rwmixread")} />
            <FieldErrors errors={errors} field="rwmixread" />
          </label>
        ) : null}
        <label>
          Block size (KiB{v.blockSizesKiB.length > 0 ? "; unused while block sizes are swept" : ""})
          <input name="blockSizeKiB" type="number" inputMode="numeric" min={4} value={Number.isNaN(v.blockSizeKiB) ? "" : v.blockSizeKiB} onChange={(e) => set("blockSizeKiB", num(e.target.value))} {...invalid(errors, "blockSizeKiB")} />
          <FieldErrors errors={errors} field="blockSizeKiB" />
        </label>
        <label>
          I/O engine
          <select name="ioengine" value={v.ioengine} onChange={(e) => set("ioengine", e.target.value as SweepWorkload["ioengine"])} {...invalid(errors, "ioengine")}>
            <option value="libaio">libaio</option>
            <option value="io_uring">io_uring</option>
            <option value="psync">psync (synchronous: queue depth 1 only)</option>
          </select>
          <FieldErrors errors={errors} field="ioengine" />
        </label>
        <label className={styles.check}>
          <input type="checkbox" name="direct" checked={v.direct} onChange={(e) => set("direct", e.target.checked)} /> Direct I/O (O_DIRECT: the page cache out of the way)
        </label>
        <label>
          File size (MiB)
          <input name="sizeMiB" type="number" inputMode="numeric" min={1} value={Number.isNaN(v.sizeMiB) ? "" : v.sizeMiB} onChange={(e) => set("sizeMiB", num(e.target.value))} {...invalid(errors, "sizeMiB")} />
          <FieldErrors errors={errors} field="sizeMiB" />
        </label>
      </fieldset>

      <Toggles
        legend="Queue depths (iodepth)"
        name="iodepths"
        choices={QD_CHOICES}
        value={v.iodepths}
        onChange={(x) => set("iodepths", x)}
        errors={errors}
        hint={psyncDeep ? <span style={{ color: "var(--warn)" }}>psync is synchronous: depths above 1 need libaio or io_uring.</span> : undefined}
      />
      <Toggles legend="Job counts (numjobs)" name="numjobs" choices={JOB_CHOICES} value={v.numjobs} onChange={(x) => set("numjobs", x)} errors={errors} />
      <Toggles
        legend="Block sizes (optional: sweep them too)"
        name="blockSizesKiB"
        choices={BS_CHOICES}
        unit="KiB"
        value={v.blockSizesKiB}
        onChange={(x) => set("blockSizesKiB", x)}
        errors={errors}
        hint="None chosen: every point uses the workload's block size."
      />

      <label>
        Time limit per point (s)
        <input name="pointRuntimeSec" type="number" inputMode="numeric" min={1} value={Number.isNaN(v.pointRuntimeSec) ? "" : v.pointRuntimeSec} onChange={(e) => set("pointRuntimeSec", num(e.target.value))} {...invalid(errors, "pointRuntimeSec")} />
        <span className="muted small">Runs shorter than 5 s are flagged by the run checks and do not count towards the saturation point.</span>
        <FieldErrors errors={errors} field="pointRuntimeSec" />
      </label>

      <fieldset className={styles.fieldset} {...invalid(errors, "steady")}>
        <legend>Steady state</legend>
        <label className={styles.check}>
          <input type="checkbox" name="steady" checked={v.steady} onChange={(e) => set("steady", e.target.checked)} /> End a point early once it is steady (fio&apos;s steadystate)
        </label>
        {v.steady ? (
          <>
            <label>
              Criterion
              <select name="steadyMetric" value={v.steadyState.metric} onChange={(e) => setSteady("metric", e.target.value as SteadyStateSpec["metric"])}>
                <option value="iops">IOPS within a range of the mean</option>
                <option value="iops_slope">IOPS slope within a limit</option>
                <option value="bw">bandwidth within a range of the mean</option>
                <option value="bw_slope">bandwidth slope within a limit</option>
              </select>
            </label>
            <label>
              Limit (% of the mean)
              <input name="steadyLimit" type="number" inputMode="decimal" min={0} step="any" value={Number.isNaN(v.steadyState.limitPercent) ? "" : v.steadyState.limitPercent} onChange={(e) => setSteady("limitPercent", num(e.target.value))} />
            </label>
            <label>
              Window (s)
              <input name="steadyWindow" type="number" inputMode="numeric" min={1} value={Number.isNaN(v.steadyState.windowSec) ? "" : v.steadyState.windowSec} onChange={(e) => setSteady("windowSec", num(e.target.value))} />
            </label>
            <label>
              Ramp before checking (s)
              <input name="steadyRamp" type="number" inputMode="numeric" min={0} value={Number.isNaN(v.steadyState.rampSec) ? "" : v.steadyState.rampSec} onChange={(e) => setSteady("rampSec", num(e.target.value))} />
            </label>
          </>
        ) : null}
        <span className="muted small">{steadyText(v.steady ? v.steadyState : null)}</span>
        <FieldErrors errors={errors} field="steady" />
      </fieldset>

      <label>
        Title (optional)
        <input name="title" value={v.title} onChange={(e) => set("title", e.target.value)} maxLength={200} {...invalid(errors, "title")} />
        <FieldErrors errors={errors} field="title" />
      </label>

      <p className={styles.estimate} aria-live="polite" data-testid="sweep-estimate">
        <strong data-testid="sweep-point-count">{n}</strong> point{n === 1 ? "" : "s"}; at most <strong data-testid="sweep-worst-case">{durationText(worst)}</strong>
        {v.steady ? " (steady state may end points sooner)" : ""}, plus laying out the file.
      </p>
      <SubmitRow missing={missing} pending={pending} disabled={!host} label="Start sweep" pendingLabel="Starting…" />
    </form>
  );
}
