"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import type { LaunchPreset } from "@/components/launch-form";
import type { ExperimentHostOption } from "@/lib/server/experiments/list-experiment-hosts";
import { METADATA_MARGIN_BYTES, VOLUME_FACTOR } from "@/probes/lab/sizing";

export interface ExperimentPrefill {
  hostId: string | null;
  preset: string | null;
  kind: "lab" | "tunables" | null;
  fs: string[];
  tunable: string | null;
  values: string[];
  min: number | null;
  max: number | null;
  title: string | null;
}

interface Props {
  hosts: ExperimentHostOption[];
  presets: LaunchPreset[];
  labFileSystems: readonly string[];
  tunableNames: readonly string[];
  prefill: ExperimentPrefill;
}

const MiB = 2 ** 20;

/**
 * The probe's file size for a preset sized beyond RAM in a lab arm: twice the RAM, but no more
 * than a lab volume can hold by the quarter rule (probes/lab/sizing.ts): an image that fits in
 * the lab's free space (one image at a time, with the agent's 64 MiB margin), or the chosen device.
 */
function labSizeMiB(host: ExperimentHostOption | undefined, device: string): number | null {
  const volume = device ? host?.lab?.devices.find((d) => d.path === device)?.sizeBytes : host?.lab?.freeBytes ? host.lab.freeBytes - 64 * MiB : null;
  if (!volume) return null;
  const fits = Math.floor((volume - METADATA_MARGIN_BYTES) / VOLUME_FACTOR / MiB);
  const ram = host?.memTotalBytes ? Math.ceil((2 * host.memTotalBytes) / MiB) : fits;
  const mib = Math.floor(Math.min(ram, fits) / 64) * 64;
  return mib >= 64 ? mib : null;
}

function paramsFor(preset: LaunchPreset | undefined, host: ExperimentHostOption | undefined, kind: "lab" | "tunables", target: string, device = ""): Record<string, unknown> {
  const params = { ...(preset?.params ?? {}) };
  const lab = kind === "lab" ? labSizeMiB(host, device) : null;
  if (preset?.sizeBeyondRam) {
    const size = kind === "lab" ? lab : host?.targets.find((t) => t.path === target)?.sizeBeyondRamMiB;
    if (size) params.sizeMiB = size;
  }
  // A fixed-size preset (the article's 4 GiB file) shrinks to what one lab image can hold.
  if (lab && typeof params.sizeMiB === "number" && params.sizeMiB > lab) params.sizeMiB = lab;
  return params;
}

/** Pick a host, a probe preset, the arms (lab file systems or tunable values) and the repeat policy. */
export function NewExperimentForm({ hosts, presets, labFileSystems, tunableNames, prefill }: Props) {
  const router = useRouter();
  const [hostId, setHostId] = useState(prefill.hostId && hosts.some((h) => h.id === prefill.hostId) ? prefill.hostId : (hosts[0]?.id ?? ""));
  const host = hosts.find((h) => h.id === hostId);
  const [presetRef, setPresetRef] = useState(prefill.preset && presets.some((p) => p.ref === prefill.preset) ? prefill.preset : (presets[0]?.ref ?? ""));
  const preset = presets.find((p) => p.ref === presetRef);
  const [kind, setKind] = useState<"lab" | "tunables">(prefill.kind ?? (host?.lab ? "lab" : "tunables"));
  const [target, setTarget] = useState(host?.targets[0]?.path ?? "");
  const [labDevice, setLabDevice] = useState("");
  const [fsChecked, setFsChecked] = useState<string[]>(prefill.fs.length ? prefill.fs : ["ext4", "xfs"]);
  const [tunable, setTunable] = useState(prefill.tunable ?? "vm.dirty_ratio");
  const [values, setValues] = useState(prefill.values.join(", "));
  const [paramsText, setParamsText] = useState(JSON.stringify(paramsFor(preset, host, kind, target), null, 2));
  const [min, setMin] = useState(prefill.min ?? 3);
  const [max, setMax] = useState(prefill.max ?? 10);
  const [cvTarget, setCvTarget] = useState(2.5);
  const [order, setOrder] = useState<"abba" | "random">("abba");
  const [dropCaches, setDropCaches] = useState(false);
  const [title, setTitle] = useState(prefill.title ?? "");
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string[]>>({});
  const [pending, setPending] = useState(false);

  const labReason = !host ? "Pick a host first." : !host.lab ? `${host.name}'s agent was started without --lab DIR, so it cannot make lab file systems.` : null;
  const tunableReason = !host
    ? "Pick a host first."
    : !host.tunables || host.tunables.allowed.length === 0
      ? `${host.name}'s agent was started without --allow-tunable, so it may not change any setting.`
      : null;
  const allowedTunables = host?.tunables?.allowed.filter((n) => n !== "vm.drop_caches") ?? [];
  const current = host?.tunables?.current.find((c) => c.name === tunable && c.device === null)?.value ?? null;
  const missing = preset && host ? host.missingTools[preset.probe] : undefined;

  function refreshParams(nextPreset = preset, nextHost = host, nextKind = kind, nextTarget = target) {
    setParamsText(JSON.stringify(paramsFor(nextPreset, nextHost, nextKind, nextTarget), null, 2));
  }

  function arms(): unknown[] {
    if (kind === "lab") return fsChecked.map((fs) => ({ fs }));
    return values
      .split(/[,\s]+/)
      .filter(Boolean)
      .map((v) => ({ tunables: { [tunable]: v } }));
  }

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    setFieldErrors({});
    let params: Record<string, unknown>;
    try {
      params = JSON.parse(paramsText) as Record<string, unknown>;
    } catch {
      setFieldErrors({ params: ["Parameters must be a JSON object."] });
      return;
    }
    setPending(true);
    try {
      const r = await fetch("/api/experiments", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          hostId,
          ...(title.trim() ? { title: title.trim() } : {}),
          probe: preset?.probe,
          params: kind === "lab" ? params : { ...params, target },
          arms: arms(),
          repeats: { min, max, cvTarget, order, dropCaches },
          ...(kind === "lab" && labDevice ? { lab: { kind: "device", device: labDevice } } : {}),
        }),
      });
      const body = (await r.json().catch(() => ({}))) as { id?: string; error?: string; fieldErrors?: Record<string, string[]> };
      if (r.status === 201 && body.id) return router.push(`/experiments/${body.id}`);
      setError(body.error ?? `The experiment could not start (HTTP ${r.status}).`);
      setFieldErrors(body.fieldErrors ?? {});
    } catch {
      setError("The server could not be reached.");
    } finally {
      setPending(false);
    }
  }

  const armErrors = Object.entries(fieldErrors).filter(([k]) => k.startsWith("arms"));
  const otherErrors = Object.entries(fieldErrors).filter(([k]) => !k.startsWith("arms"));
  return (
    <form className="stack" style={{ maxWidth: "48rem" }} onSubmit={onSubmit} noValidate data-testid="experiment-form">
      {error ? (
        <div role="alert" className="alert alert-error">
          {error}
          {[...armErrors, ...otherErrors].length > 0 ? (
            <ul>
              {[...armErrors, ...otherErrors].map(([k, msgs]) => (
                <li key={k}>
                  <code>{k}</code>: {msgs.join(" ")}
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
      <label>
        Host
        <select
          name="hostId"
          value={hostId}
          onChange={(e) => {
            const next = hosts.find((h) => h.id === e.target.value);
            setHostId(e.target.value);
            const t = next?.targets[0]?.path ?? "";
            setTarget(t);
            refreshParams(preset, next, kind, t);
          }}
        >
          {hosts.map((h) => (
            <option key={h.id} value={h.id}>
              {h.name}
            </option>
          ))}
        </select>
      </label>
      <label>
        Probe and preset
        <select
          name="preset"
          value={presetRef}
          onChange={(e) => {
            setPresetRef(e.target.value);
            refreshParams(presets.find((p) => p.ref === e.target.value));
          }}
        >
          {presets.map((p) => (
            <option key={p.ref} value={p.ref}>
              {p.title}
            </option>
          ))}
        </select>
        {preset ? <span className="muted small">{preset.description}</span> : null}
      </label>

      <fieldset>
        <legend>Arms: what differs between them</legend>
        <label className="inline">
          <input
            type="radio"
            name="kind"
            value="lab"
            checked={kind === "lab"}
            disabled={!!labReason}
            onChange={() => {
              setKind("lab");
              refreshParams(preset, host, "lab");
            }}
          />{" "}
          File systems (a fresh lab volume of the same size for each)
        </label>
        {labReason ? (
          <p className="muted small" data-testid="lab-disabled">
            {labReason}
          </p>
        ) : null}
        {kind === "lab" && !labReason ? (
          <div role="group" aria-label="Lab file systems" className="row" data-testid="lab-arms">
            {labFileSystems.map((fs) => {
              const has = host?.lab?.fileSystems.includes(fs) ?? false;
              return (
                <label key={fs} className="inline" title={has ? undefined : `mkfs.${fs} is not installed on ${host?.name}`}>
                  <input
                    type="checkbox"
                    name="fs"
                    value={fs}
                    disabled={!has}
                    checked={has && fsChecked.includes(fs)}
                    onChange={(e) => setFsChecked((cur) => (e.target.checked ? [...cur, fs] : cur.filter((x) => x !== fs)))}
                  />{" "}
                  {fs}
                  {has ? "" : " (no mkfs)"}
                </label>
              );
            })}
            {host?.lab?.devices.length ? (
              <label>
                Lab volume{" "}
                <select name="labDevice" value={labDevice} onChange={(e) => setLabDevice(e.target.value)} data-testid="lab-volume">
                  <option value="">an image per arm on a loop device</option>
                  {host.lab.devices.map((d) => (
                    <option key={d.path} value={d.path}>
                      the whole device {d.path} ({(d.sizeBytes / 2 ** 30).toFixed(1)} GiB), formatted for each arm: its data is destroyed
                    </option>
                  ))}
                </select>
              </label>
            ) : null}
            <span className="muted small">
              The first one checked is the baseline. Lab dir {host?.lab?.dir}
              {host?.lab?.freeBytes ? `, ${(host.lab.freeBytes / 2 ** 30).toFixed(1)} GiB free` : ""}.
            </span>
          </div>
        ) : null}
        <label className="inline">
          <input
            type="radio"
            name="kind"
            value="tunables"
            checked={kind === "tunables"}
            disabled={!!tunableReason}
            onChange={() => {
              setKind("tunables");
              refreshParams(preset, host, "tunables");
            }}
          />{" "}
          Values of one kernel setting
        </label>
        {tunableReason ? (
          <p className="muted small" data-testid="tunables-disabled">
            {tunableReason}
          </p>
        ) : null}
        {kind === "tunables" && !tunableReason ? (
          <div className="stack" data-testid="tunable-arms">
            <label>
              Setting
              <select name="tunable" value={tunable} onChange={(e) => setTunable(e.target.value)}>
                {tunableNames.map((n) => (
                  <option key={n} value={n} disabled={!allowedTunables.includes(n)}>
                    {n}
                    {allowedTunables.includes(n) ? "" : " (not allowed by this agent)"}
                  </option>
                ))}
              </select>
              <span className="muted small">{current !== null ? `Now ${current} on ${host?.name}; put back after every run.` : "Put back after every run."}</span>
            </label>
            <label>
              Values, one arm each (the first is the baseline)
              <input name="values" value={values} onChange={(e) => setValues(e.target.value)} placeholder="e.g. 20, 5" />
            </label>
            <label>
              Target directory
              <select name="target" value={target} onChange={(e) => setTarget(e.target.value)}>
                {(host?.targets ?? []).map((t) => (
                  <option key={t.path} value={t.path}>
                    {t.path} — {t.fsType ?? "?"} · {t.medium ?? "?"}
                  </option>
                ))}
              </select>
            </label>
          </div>
        ) : null}
      </fieldset>

      <label>
        Parameters (JSON{kind === "lab" ? "; each arm runs in its own lab volume" : "; the target is set above"})
        <textarea name="params" rows={7} value={paramsText} onChange={(e) => setParamsText(e.target.value)} spellCheck={false} />
      </label>

      <fieldset>
        <legend>Repeats</legend>
        <div className="row">
          <label>
            At least (rounds)
            <input name="min" type="number" min={2} max={50} value={min} onChange={(e) => setMin(Number(e.target.value))} />
          </label>
          <label>
            At most (rounds)
            <input name="max" type="number" min={2} max={50} value={max} onChange={(e) => setMax(Number(e.target.value))} />
          </label>
          <label>
            Stop when every arm&apos;s CV is under (%)
            <input name="cvTarget" type="number" min={0.1} max={100} step={0.1} value={cvTarget} onChange={(e) => setCvTarget(Number(e.target.value))} />
          </label>
          <label>
            Order
            <select name="order" value={order} onChange={(e) => setOrder(e.target.value as "abba" | "random")}>
              <option value="abba">A B, B A, … (alternating)</option>
              <option value="random">Shuffled blocks (seeded)</option>
            </select>
          </label>
        </div>
        <label className="inline">
          <input type="checkbox" name="dropCaches" checked={dropCaches} disabled={!host?.tunables?.dropCaches} onChange={(e) => setDropCaches(e.target.checked)} /> Drop the page cache before
          each run
          {host?.tunables?.dropCaches ? "" : <span className="muted small"> — needs the agent&apos;s --allow-tunable vm.drop_caches</span>}
        </label>
      </fieldset>
      <label>
        Title (optional)
        <input name="title" value={title} onChange={(e) => setTitle(e.target.value)} maxLength={200} />
      </label>
      {missing ? (
        <div className="alert alert-warn" role="status">
          {missing}
        </div>
      ) : null}
      <div>
        <button className="btn btn-primary" type="submit" disabled={pending || !host || !!missing || (!!labReason && !!tunableReason)}>
          {pending ? "Starting…" : "Start experiment"}
        </button>
      </div>
    </form>
  );
}
