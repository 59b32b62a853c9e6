// The probe catalog: what the server offers, validates and parses, and what the agent runs.
// The server only ever sends a probe id and parameters; the command line is built here, on the
// host, from validated parameters. `probes` below is the one registry: the tool ids (`Tool`,
// TOOL_IDS, every zod enum of tools) derive from it, so a new probe is its folder plus one line.
import { z } from "zod";
import type { MetricVocabulary } from "./core/metrics";
import type { HeadlineValue, PresetDef, ProbeDefinition, ProbeId } from "./core/probe";
import { normalisedResultSchemaFor } from "./core/schemas";
import type { NormalisedResult, ParseOutcome } from "./core/types";
import { ddProbe } from "./dd/probe";
import { fioProbe } from "./fio/probe";
import { fsmetaProbe } from "./fsmeta/probe";
import { iozoneProbe } from "./iozone/probe";
import { sarProbe } from "./sar/probe";

/** The registry, in catalog order (launch form, import form, compare sections). */
const probes = {
  iozone: iozoneProbe,
  dd: ddProbe,
  sar: sarProbe,
  fio: fioProbe,
  fsmeta: fsmetaProbe,
};

/** A probe id: a key of the registry. */
export type ToolId = keyof typeof probes;

/** The one list of tool ids, in catalog order. */
export const TOOL_IDS = Object.keys(probes) as unknown as readonly [ToolId, ...ToolId[]];

export const toolSchema = z.enum(TOOL_IDS);

export type { HeadlineValue, ProbeDefinition, ProbeId, PresetDef } from "./core/probe";
export type { CommandSpec, Measurement, NormalisedResult, ParseOutcome, Progress, Tool } from "./core/types";
export type { Better, DisplayUnit, MetricDef, MetricVocabulary } from "./core/metrics";
export type { ChartDraft, ChartRowDraft, ProbeView, RunChart, RunChartSeries, SectionDraft, SeriesValues, TableRowDraft, ViewRun, ViewSeries, XKind } from "./core/view";
export { displayMeasurement, displayUnit } from "./core/metrics";
export { presetSizeMiB, shrinkToTargetMiB } from "./core/sizing";

export type ProbeParamsById = { [K in ProbeId]: (typeof probes)[K] extends ProbeDefinition<infer P> ? P : never };
export type AnyProbeParams = ProbeParamsById[ProbeId];
export type AnyProbe = ProbeDefinition<AnyProbeParams>;

export const catalog: { readonly [K in ProbeId]: ProbeDefinition<ProbeParamsById[K]> } = probes;

/** Probe ids in catalog order (the order of TOOL_IDS). */
export const probeIds: readonly ProbeId[] = TOOL_IDS;

/** Validates stored and imported results against each probe's metric vocabulary. */
export const normalisedResultSchema = normalisedResultSchemaFor(
  toolSchema,
  Object.fromEntries(TOOL_IDS.map((id) => [id, catalog[id].metrics])) as Record<ProbeId, MetricVocabulary>,
);

export const parseOutcomeSchema = z.discriminatedUnion("ok", [
  z.object({ ok: z.literal(true), result: normalisedResultSchema }),
  z.object({ ok: z.literal(false), error: z.string() }),
]);

/** "iozone, dd, sar or fio": the probe ids for a sentence. */
export function probeChoices(): string {
  return probeIds.length > 1 ? `${probeIds.slice(0, -1).join(", ")} or ${probeIds[probeIds.length - 1]}` : probeIds.join("");
}

/** The probe that reads a host's own recorded history (`--history`), if the catalog has one. */
export function historyProbe(): AnyProbe | undefined {
  return allProbes().find((p) => p.history);
}

/** Every probe, in catalog order. */
export function allProbes(): AnyProbe[] {
  return probeIds.map((id) => catalog[id] as AnyProbe);
}

export function isProbeId(id: unknown): id is ProbeId {
  return typeof id === "string" && (probeIds as readonly string[]).includes(id);
}

export function getProbe<K extends ProbeId>(id: K): ProbeDefinition<ProbeParamsById[K]>;
export function getProbe(id: string): AnyProbe | undefined;
export function getProbe(id: string): AnyProbe | undefined {
  return isProbeId(id) ? (catalog[id] as AnyProbe) : undefined;
}

export type ValidateResult<P> =
  | { ok: true; params: P }
  | { ok: false; fieldErrors: Record<string, string[]>; message: string };

/** fieldErrors are keyed by dotted path ("tests.1", "target"); "_" holds errors of the whole object. */
function fieldErrorsOf(error: z.ZodError): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const key = issue.path.length > 0 ? issue.path.map(String).join(".") : "_";
    (out[key] ??= []).push(issue.message);
  }
  return out;
}

export function validateParams<K extends ProbeId>(probeId: K, input: unknown): ValidateResult<ProbeParamsById[K]>;
export function validateParams(probeId: string, input: unknown): ValidateResult<AnyProbeParams>;
export function validateParams(probeId: string, input: unknown): ValidateResult<AnyProbeParams> {
  const probe = getProbe(probeId);
  if (!probe) {
    const message = `Unknown probe "${probeId}": choose one of ${probeIds.join(", ")}.`;
    return { ok: false, fieldErrors: { probe: [message] }, message };
  }
  const r = probe.paramsSchema.safeParse(input);
  if (r.success) return { ok: true, params: r.data };
  const fieldErrors = fieldErrorsOf(r.error);
  const message = `Invalid ${probeId} parameters: ${Object.entries(fieldErrors)
    .map(([k, msgs]) => `${k === "_" ? "" : `${k}: `}${msgs.join(", ")}`)
    .join("; ")}`;
  return { ok: false, fieldErrors, message };
}

/** Never throws: an unknown probe id is a failed parse too. */
export function parseOutput(probeId: string, output: string): ParseOutcome {
  const probe = getProbe(probeId);
  if (!probe) return { ok: false, error: `Unknown probe "${probeId}"` };
  return probe.parse(output);
}

export interface ResolvedPreset {
  /** "<probe>:<preset>", e.g. "iozone:ext-article". */
  ref: string;
  probeId: ProbeId;
  presetId: string;
  title: string;
  description: string;
  /** All parameters except target. */
  params: Omit<AnyProbeParams, "target">;
  /** The file should be larger than the host's RAM (see PresetDef.sizeBeyondRam). */
  sizeBeyondRam: boolean;
}

export function resolvePreset(ref: string): ResolvedPreset | undefined {
  const sep = ref.indexOf(":");
  if (sep < 0) return undefined;
  const probeId = ref.slice(0, sep);
  const presetId = ref.slice(sep + 1);
  const probe = getProbe(probeId);
  if (!probe || !Object.hasOwn(probe.presets, presetId)) return undefined;
  const preset = probe.presets[presetId] as PresetDef<AnyProbeParams>;
  return { ref, probeId: probe.id, presetId, title: preset.title, description: preset.description, params: structuredClone(preset.params), sizeBeyondRam: preset.sizeBeyondRam === true };
}

/** Every "<probe>:<preset>" reference, in catalog order. */
export function presetRefs(): string[] {
  return probeIds.flatMap((id) => Object.keys(catalog[id].presets).map((p) => `${id}:${p}`));
}

/** A preset's parameters for one target directory, validated. */
export function presetParams(ref: string, target: string): ValidateResult<AnyProbeParams> {
  const preset = resolvePreset(ref);
  if (!preset) {
    const message = `Unknown preset "${ref}"`;
    return { ok: false, fieldErrors: { preset: [message] }, message };
  }
  return validateParams(preset.probeId, { ...preset.params, target });
}

/**
 * Bytes a run writes into its target (0 for sar and dd reads). Parameters are validated first;
 * invalid ones (which cannot run anyway) count as 0.
 */
export function requiredFreeBytes(probeId: string, params: unknown): number {
  const probe = getProbe(probeId);
  if (!probe) return 0;
  const r = probe.paramsSchema.safeParse(params);
  return r.success ? probe.requiredFreeBytes(r.data) : 0;
}

/** The figures an experiment compares for one run's result (see ProbeDefinition.headline). */
export function headlineValues(probeId: string, result: NormalisedResult, params: unknown): HeadlineValue[] {
  const probe = getProbe(probeId);
  if (!probe) return [];
  const v = probe.paramsSchema.safeParse(params);
  return v.success ? probe.headline(result, v.data) : [];
}
