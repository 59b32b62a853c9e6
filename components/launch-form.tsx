"use client";

import { useRouter } from "next/navigation";
import { useMemo, useState, type FormEvent } from "react";
import { FieldError, FormError, SubmitRow } from "@/components/form-error";
import { FioJobFileField } from "@/components/fio-job-file-field";
import { isMemoryBacked as isMemory, presetSizeMiB, shrinkToTargetMiB } from "@/probes/core/sizing";

export interface LaunchHost {
  id: string;
  name: string;
  /** The host's RAM, which sizes presets per target (probes/core/sizing.ts). */
  memTotalBytes: number | null;
  targets: { path: string; fsType: string | null; medium: string | null; freeBytes: number | null }[];
  missingTools: Record<string, string>;
}

export interface LaunchPreset {
  ref: string;
  probe: string;
  title: string;
  description: string;
  params: Record<string, unknown>;
  /** The file should be larger than the host's RAM: sizeMiB follows the chosen target. */
  sizeBeyondRam?: boolean;
}

interface Props {
  hosts: LaunchHost[];
  presets: LaunchPreset[];
  initialPreset: string | null;
  initialHostId: string | null;
}

/** The launch body's fields in the words of the form's labels. */
const LAUNCH_LABELS = { hostId: "Host", probe: "Preset", preset: "Preset", repeats: "Repeats", params: "Parameters" };

const gib = (b: number | null) => (b === null ? "?" : `${(b / 2 ** 30).toFixed(1)} GiB free`);

type LaunchTarget = LaunchHost["targets"][number];

/**
 * The file size the form proposes for a preset on a target, or null to keep the preset's: presets
 * sized beyond RAM are sized for the target and workload (presetSizeMiB), and any other size
 * shrinks to what the target can hold (free space minus a margin, a quarter of RAM on tmpfs).
 */
function sizeFor(preset: LaunchPreset | undefined, host: LaunchHost | undefined, target: LaunchTarget | undefined): number | null {
  if (!preset || !host || !target) return null;
  if (preset.sizeBeyondRam) return presetSizeMiB(host.memTotalBytes, target, preset.params);
  const own = preset.params.sizeMiB;
  return typeof own === "number" ? shrinkToTargetMiB(own, host.memTotalBytes, target) : null;
}

function paramsFor(preset: LaunchPreset | undefined, host: LaunchHost | undefined, target: LaunchTarget | undefined): Record<string, unknown> {
  const params = preset?.params ?? {};
  const size = sizeFor(preset, host, target);
  return size ? { ...params, sizeMiB: size } : params;
}

/** Launch a catalog probe: preset → parameters (editable), host, target directory, repeats. */
export function LaunchForm({ hosts, presets, initialPreset, initialHostId }: Props) {
  const router = useRouter();
  const [presetRef, setPresetRef] = useState(initialPreset ?? presets[0]?.ref ?? "");
  const preset = presets.find((p) => p.ref === presetRef) ?? presets[0];
  const [chosenHostId, setHostId] = useState(initialHostId ?? hosts[0]?.id ?? "");
  // What is sent is what the selects show: an unknown host id (a stale link) shows the first host,
  // and a directory the chosen host does not allow shows (and sends) that host's first directory.
  const host = hosts.find((h) => h.id === chosenHostId) ?? hosts[0];
  const hostId = host?.id ?? "";
  const [chosenTarget, setTarget] = useState(host?.targets[0]?.path ?? "");
  const target = host?.targets.some((t) => t.path === chosenTarget) ? chosenTarget : (host?.targets[0]?.path ?? "");
  const targetInfo = host?.targets.find((t) => t.path === target);
  const [paramsText, setParamsText] = useState(JSON.stringify(paramsFor(preset, host, targetInfo), null, 2));
  const [repeats, setRepeats] = useState(1);
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string[]>>({});
  const [pending, setPending] = useState(false);
  /** fio only: run a job file instead of the preset's fields. */
  const [useJobFile, setUseJobFile] = useState(false);
  const [jobFile, setJobFile] = useState("");
  const jobFileMode = useJobFile && preset?.probe === "fio";
  const missing = preset && host ? host.missingTools[preset.probe] : undefined;
  const proposed = preset?.sizeBeyondRam ? sizeFor(preset, host, targetInfo) : null;

  const byProbe = useMemo(() => {
    const m = new Map<string, LaunchPreset[]>();
    for (const p of presets) m.set(p.probe, [...(m.get(p.probe) ?? []), p]);
    return m;
  }, [presets]);

  function choosePreset(ref: string) {
    setPresetRef(ref);
    const p = presets.find((x) => x.ref === ref);
    if (p) setParamsText(JSON.stringify(paramsFor(p, host, targetInfo), null, 2));
  }

  /** Another target (or host) changes the size of a preset sized beyond RAM; other edits stay. */
  function chooseTarget(nextHost: LaunchHost | undefined, path: string) {
    setTarget(path);
    const size = sizeFor(preset, nextHost, nextHost?.targets.find((t) => t.path === path));
    if (!size) return;
    try {
      const current = JSON.parse(paramsText) as Record<string, unknown>;
      setParamsText(JSON.stringify({ ...current, sizeMiB: size }, null, 2));
    } catch {
      // Unparsable JSON is the user's edit in progress: leave it alone.
    }
  }

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    setFieldErrors({});
    let params: Record<string, unknown>;
    try {
      // A job file replaces the preset's workload: only it and the target are sent.
      params = jobFileMode ? { jobFile } : (JSON.parse(paramsText) as Record<string, unknown>);
    } catch {
      setFieldErrors({ params: ["Parameters must be a JSON object."] });
      return;
    }
    setPending(true);
    try {
      const r = await fetch("/api/runs", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ hostId, probe: preset?.probe, preset: jobFileMode ? undefined : preset?.ref.slice(preset.ref.indexOf(":") + 1), params: { ...params, target }, repeats }),
      });
      const body = (await r.json().catch(() => ({}))) as { id?: string; error?: string; fieldErrors?: Record<string, string[]> };
      if (r.status === 201 && body.id) return router.push(`/runs/${body.id}`);
      setError(body.error ?? `Launch failed (HTTP ${r.status}).`);
      setFieldErrors(body.fieldErrors ?? {});
    } catch {
      setError("The server could not be reached.");
    } finally {
      setPending(false);
    }
  }

  const paramErrors = Object.entries(fieldErrors).filter(([k]) => k.startsWith("params") && !(jobFileMode && k === "params.jobFile"));
  return (
    <form className="stack" style={{ maxWidth: "44rem" }} onSubmit={onSubmit} noValidate data-testid="launch-form">
      <FormError error={error} fieldErrors={fieldErrors} placed={(k) => k === "repeats" || k.startsWith("params")} labels={LAUNCH_LABELS} />
      <label>
        Preset
        <select name="preset" value={presetRef} onChange={(e) => choosePreset(e.target.value)}>
          {[...byProbe].map(([probe, list]) => (
            <optgroup key={probe} label={probe}>
              {list.map((p) => (
                <option key={p.ref} value={p.ref}>
                  {p.title}
                </option>
              ))}
            </optgroup>
          ))}
        </select>
        {preset ? <span className="muted small">{preset.description}</span> : null}
        {preset?.sizeBeyondRam ? (
          <span className="muted small" data-testid="size-beyond-ram">
            {proposed
              ? `File size set to ${proposed >= 1024 ? `${proposed / 1024} GiB` : `${proposed} MiB`} for this target: ${preset.params.direct === false ? "twice the host's RAM" : "what the run can reach (O_DIRECT bypasses the page cache, so RAM does not matter)"}, within the free space${targetInfo && isMemory(targetInfo) ? " and a quarter of the RAM (the file lives in memory)" : ""}.`
              : "This host's RAM size is not known yet, so the preset's file size is kept; check that the target has room."}
          </span>
        ) : null}
      </label>
      <label>
        Host
        <select
          name="hostId"
          value={hostId}
          onChange={(e) => {
            const next = hosts.find((h) => h.id === e.target.value);
            setHostId(e.target.value);
            chooseTarget(next, next?.targets[0]?.path ?? "");
          }}
          disabled={hosts.length === 0}
        >
          {hosts.length === 0 ? <option value="">no hosts registered yet</option> : null}
          {hosts.map((h) => (
            <option key={h.id} value={h.id}>
              {h.name}
            </option>
          ))}
        </select>
      </label>
      <label>
        Target directory
        <select name="target" value={target} onChange={(e) => chooseTarget(host, e.target.value)} disabled={!host}>
          {(host?.targets ?? []).map((t) => (
            <option key={t.path} value={t.path}>
              {t.path} — {t.fsType ?? "?"} · {t.medium ?? "?"} · {gib(t.freeBytes)}
            </option>
          ))}
        </select>
        {fieldErrors["params.target"] ? <span className="field-error">{fieldErrors["params.target"].join(" ")}</span> : null}
      </label>
      {preset?.probe === "fio" ? (
        <fieldset data-testid="fio-workload">
          <legend>Workload</legend>
          <label style={{ display: "inline-flex", gap: "0.3rem", alignItems: "center", marginRight: "1rem" }}>
            <input type="radio" name="fioWorkload" checked={!useJobFile} onChange={() => setUseJobFile(false)} /> Workload fields
          </label>{" "}
          <label style={{ display: "inline-flex", gap: "0.3rem", alignItems: "center", marginRight: "1rem" }}>
            <input type="radio" name="fioWorkload" checked={useJobFile} onChange={() => setUseJobFile(true)} /> Job file
          </label>
        </fieldset>
      ) : null}
      {jobFileMode ? (
        <FioJobFileField value={jobFile} onChange={setJobFile} serverErrors={fieldErrors["params.jobFile"] ?? []} />
      ) : null}
      <label hidden={jobFileMode}>
        Parameters (JSON; the target is set above)
        <textarea name="params" rows={8} value={paramsText} onChange={(e) => setParamsText(e.target.value)} spellCheck={false} aria-invalid={paramErrors.length ? true : undefined} />
      </label>
      {paramErrors.map(([k, msgs]) => (
        <span key={k} className="field-error">
          {k.replace(/^params\.?/, "") || "parameters"}: {msgs.join(" ")}
        </span>
      ))}
      {preset?.probe === "fio" ? <FioSteadyState paramsText={paramsText} setParamsText={setParamsText} /> : null}
      <label>
        Repeats (median and spread need 3–5)
        <input name="repeats" type="number" min={1} max={20} value={repeats} onChange={(e) => setRepeats(Number(e.target.value))} aria-invalid={fieldErrors.repeats ? true : undefined} />
        <FieldError messages={fieldErrors.repeats} field="repeats" />
      </label>
      <SubmitRow missing={missing} pending={pending} disabled={!host} label="Launch" pendingLabel="Launching…" />
    </form>
  );
}

/**
 * fio's steady state (probes/fio/steady-state.ts) as a checkbox over the parameters' JSON: on, it
 * adds steadyState (IOPS within 5 % over 5 s after a 2 s ramp) and a 60 s runtime when the preset
 * has none (fio checks it only in a time-based job); off, it removes it.
 */
function FioSteadyState({ paramsText, setParamsText }: { paramsText: string; setParamsText: (t: string) => void }) {
  let params: Record<string, unknown> | null = null;
  try {
    const parsed: unknown = JSON.parse(paramsText);
    params = typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch {
    params = null;
  }
  const on = !!params && typeof params.steadyState === "object" && params.steadyState !== null;
  const toggle = (checked: boolean) => {
    if (!params) return;
    const { steadyState: _s, ...rest } = params;
    const next = checked ? { ...rest, runtimeSec: rest.runtimeSec ?? 60, loops: undefined, steadyState: { metric: "iops", limitPercent: 5, windowSec: 5, rampSec: 2 } } : rest;
    setParamsText(JSON.stringify(next, null, 2));
  };
  return (
    <label className="check">
      <input type="checkbox" name="steadyState" checked={on} disabled={!params} onChange={(e) => toggle(e.target.checked)} />
      End when steady (fio&apos;s steadystate: IOPS within 5 % over 5 s after a 2 s ramp; edit steadyState above for bw, slopes or other limits)
    </label>
  );
}
