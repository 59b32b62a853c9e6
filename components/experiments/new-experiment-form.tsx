"use client";

import { useRouter } from "next/navigation";
import { useEffect, useState, type FormEvent } from "react";
import { FieldError, FormError, SubmitRow } from "@/components/form-error";
import { TrialPanel } from "@/components/experiments/trial-panel";
import { labIozoneFileSizeMiB } from "@/lib/experiments/lab-sizing";
import { trialHost } from "@/lib/experiments/trial-host";
import { planTrial } from "@/lib/experiments/trials";
import type { LaunchPreset } from "@/components/launch-form";
import type { ExperimentHostOption } from "@/lib/server/experiments/list-experiment-hosts";
import { presetSizeMiB, shrinkToTargetMiB } from "@/probes/core/sizing";
import { labFileFitsMiB } from "@/probes/lab/sizing";
import { defaultRepeats, RepeatsFieldset, type RepeatsValue } from "./repeats-fieldset";

export interface ExperimentPrefill {
  hostId: string | null;
  preset: string | null;
  kind: "lab" | "tunables" | null;
  fs: string[];
  tunable: string | null;
  values: string[];
  min: number | null;
  max: number | null;
  /** ?warmup=0 turns the warm-up run off. */
  warmup?: boolean | null;
  title: string | null;
  /** A one-click trial (lib/experiments/trials.ts): the form sizes it for the chosen host. */
  trial?: string | null;
  /** The compared runs' own parameters and target ("Turn this into an experiment"), kept as they ran. */
  params?: Record<string, unknown> | null;
  target?: string | null;
}

/** The body's fields in the words of the form's labels (components/form-error.tsx names the rest). */
const LABELS = { hostId: "Host", probe: "Probe and preset", preset: "Probe and preset", params: "Parameters", title: "Title", lab: "Lab volume", repeats: "Repeats" };

interface Props {
  hosts: ExperimentHostOption[];
  presets: LaunchPreset[];
  labFileSystems: readonly string[];
  tunableNames: readonly string[];
  prefill: ExperimentPrefill;
}

/**
 * The largest probe file a lab volume can hold by the quarter rule (probes/lab/sizing.ts): an
 * image that fits in the lab's free space (one image at a time, with the agent's 64 MiB margin),
 * or the chosen `--lab-device`.
 */
function labFitsMiB(host: ExperimentHostOption | undefined, device: string): number | null {
  if (device) return labFileFitsMiB(host?.lab?.devices.find((d) => d.path === device)?.sizeBytes ?? null);
  return labIozoneFileSizeMiB(host?.lab?.freeBytes ?? null);
}

/** A lab image is a file system on a loop device or a disk: a disk to the sizing, whose room labFitsMiB bounds. */
const LAB_TARGET = { freeBytes: null, fsType: null, medium: "disk" } as const;

function paramsFor(preset: LaunchPreset | undefined, host: ExperimentHostOption | undefined, kind: "lab" | "tunables", target: string, device = ""): Record<string, unknown> {
  const params = { ...(preset?.params ?? {}) };
  const lab = kind === "lab" ? labFitsMiB(host, device) : null;
  const targetInfo = kind === "lab" ? LAB_TARGET : host?.targets.find((t) => t.path === target);
  if (preset?.sizeBeyondRam && host && targetInfo) {
    // Sized for the workload and target (probes/core/sizing.ts): the run's reach for O_DIRECT,
    // twice the RAM for buffered I/O, within the free space, a quarter of RAM on tmpfs.
    const size = presetSizeMiB(host.memTotalBytes, targetInfo, preset.params);
    if (size) params.sizeMiB = size;
  } else if (kind === "tunables" && host && targetInfo && typeof params.sizeMiB === "number") {
    params.sizeMiB = shrinkToTargetMiB(params.sizeMiB, host.memTotalBytes, targetInfo) ?? params.sizeMiB;
  }
  // A fixed-size preset (the article's 4 GiB file) shrinks to what one lab image can hold.
  if (lab && typeof params.sizeMiB === "number" && params.sizeMiB > lab) params.sizeMiB = lab;
  // iozone's own file size (-s), shrunk to what a lab volume can hold.
  if (kind === "lab" && typeof params.fileSizeMiB === "number") {
    const fit = labIozoneFileSizeMiB(host?.lab?.freeBytes ?? null);
    if (fit !== null && params.fileSizeMiB > fit) params.fileSizeMiB = fit;
  }
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
  const [target, setTarget] = useState(prefill.target && host?.targets.some((t) => t.path === prefill.target) ? prefill.target : (host?.targets[0]?.path ?? ""));
  const [labDevice, setLabDevice] = useState("");
  const [fsChecked, setFsChecked] = useState<string[]>(prefill.fs.length ? prefill.fs : ["ext4", "xfs"]);
  const [chosenTunable, setTunable] = useState(prefill.tunable ?? "vm.dirty_ratio");
  const [values, setValues] = useState(prefill.values.join(", "));
  const [paramsText, setParamsText] = useState(() => {
    // The compared runs' parameters as they ran (their target is the Target directory field).
    if (prefill.params) {
      const { target: _t, ...own } = prefill.params;
      return JSON.stringify(own, null, 2);
    }
    return JSON.stringify(paramsFor(preset, host, kind, target), null, 2);
  });
  const [repeats, setRepeats] = useState<RepeatsValue>(defaultRepeats(prefill));
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
  const allowedTunables = host?.tunables?.allowed.filter((n) => n !== "vm.drop_caches" && tunableNames.includes(n)) ?? [];
  // What is sent is what the select shows: a setting this agent does not allow (the default, a
  // link's) gives way to the first one it does, never to a disabled option.
  const tunable = allowedTunables.includes(chosenTunable) ? chosenTunable : (allowedTunables[0] ?? chosenTunable);
  const current = host?.tunables?.current.find((c) => c.name === tunable && c.device === null)?.value ?? null;
  const missing = preset && host ? host.missingTools[preset.probe] : undefined;
  const trialName = kind === "tunables" && prefill.trial ? tunable : null;
  const offer = trialName && host ? planTrial(trialName, trialHost(host.name, host.profile, host, target || null), prefill.values) : null;
  const labFit = kind === "lab" && preset?.probe === "iozone" && host?.lab && host.lab.freeBytes !== null ? labIozoneFileSizeMiB(host.lab.freeBytes) : undefined;
  const offerKey = offer?.offered ? JSON.stringify([offer.params, offer.values, offer.dropCaches]) : null;
  useEffect(() => {
    // A trial's sizing follows the host and target; the fields stay editable afterwards.
    if (!offer?.offered) return;
    setParamsText(JSON.stringify(offer.params, null, 2));
    setValues(offer.values.join(", "));
    setRepeats((r) => ({ ...r, dropCaches: offer.dropCaches }));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [offerKey]);

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
      setError("Parameters must be a JSON object.");
      setFieldErrors({ params: ["Parameters must be a JSON object."] });
      return;
    }
    if (arms().length < 2) {
      const msg = kind === "lab" ? "Check at least two file systems, one per arm." : "Give at least two values, one per arm, separated by commas (the first is the baseline).";
      setError(msg);
      setFieldErrors({ arms: [msg] });
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
          repeats,
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

  // The arms' errors sit beside the values (or the file systems) they came from, each arm named.
  const valueList = values.split(/[,\s]+/).filter(Boolean);
  const armMessages = Object.entries(fieldErrors)
    .filter(([k]) => k === "arms" || k.startsWith("arms."))
    .flatMap(([k, msgs]) => {
      const i = /^arms\.(\d+)/.exec(k)?.[1];
      const which = i === undefined ? "" : kind === "lab" ? `${fsChecked[Number(i)] ?? `arm ${Number(i) + 1}`}: ` : `value ${Number(i) + 1} (${valueList[Number(i)] ?? "?"}): `;
      return msgs.map((m) => `${which}${m}`);
    });
  const placed = (k: string) => k.startsWith("repeats.") || k === "params" || ((k === "arms" || k.startsWith("arms.")) && armMessages.length > 0);
  return (
    <form className="stack" style={{ maxWidth: "48rem" }} onSubmit={onSubmit} noValidate data-testid="experiment-form">
      <FormError error={error} fieldErrors={fieldErrors} placed={placed} labels={LABELS} />
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
            <FieldError messages={armMessages} field="arms" />
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
              <input name="values" value={values} onChange={(e) => setValues(e.target.value)} placeholder="e.g. 20, 5" aria-invalid={armMessages.length ? true : undefined} />
              <FieldError messages={armMessages} field="arms" />
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

      {offer ? <TrialPanel offer={offer} /> : null}
      {labFit === null ? (
        <div className="alert alert-warn" role="status" data-testid="lab-too-small">
          The lab dir has too little free space for a lab volume that holds even a 64 MiB IOzone file (a file may take at most a quarter of its volume).
        </div>
      ) : null}
      <label>
        Parameters (JSON{kind === "lab" ? "; each arm runs in its own lab volume" : "; the target is set above"})
        <textarea name="params" rows={7} value={paramsText} onChange={(e) => setParamsText(e.target.value)} spellCheck={false} aria-invalid={fieldErrors.params ? true : undefined} />
        <FieldError messages={fieldErrors.params} field="params" />
      </label>

      <RepeatsFieldset value={repeats} onChange={setRepeats} errors={fieldErrors} canDropCaches={!!host?.tunables?.dropCaches} />
      <label>
        Title (optional)
        <input name="title" value={title} onChange={(e) => setTitle(e.target.value)} maxLength={200} />
      </label>
      <SubmitRow missing={missing} pending={pending} disabled={!host || (!!labReason && !!tunableReason) || offer?.offered === false} label="Start experiment" pendingLabel="Starting…" />
    </form>
  );
}
