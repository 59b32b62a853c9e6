import { getProbe } from "../../../probes/catalog";
import { displayMeasurement } from "../../../probes/core/metrics";
import type { NormalisedResult } from "../../../probes/core/types";
import type { TelemetrySample } from "../../../probes/telemetry/types";
import { contextFromProfile } from "../../diagnosis/context";
import { diagnose, type Finding } from "../../diagnosis/evaluate";
import { diagnoseResult } from "../../diagnosis/run-diagnosis";
import { timelineFromTelemetry } from "../../diagnosis/timeline";
import { db } from "../../db";
import { readRunTelemetry, type TelemetryPoint } from "./get-run-telemetry";

export interface RunFinding {
  rule: string;
  severity: Finding["severity"];
  title: string;
  summary: string;
  mechanism: string;
  limits: string;
  evidence: Finding["evidence"];
  guide: Finding["guide"];
  doc: Finding["doc"];
  next: Finding["next"];
}

interface FindingsInput {
  probe: string;
  params: unknown;
  result: unknown;
  /** The run's profile snapshot: rotational flag, NUMA nodes, zone_reclaim_mode, dirty sysctls. */
  profile?: unknown;
}

/** A read run's own throughput in KiB/s, which the page-cache rule sets beside the device's reads. */
function probeReadKBs(input: FindingsInput): number | null {
  const def = getProbe(input.probe);
  const params = (typeof input.params === "object" && input.params !== null ? input.params : {}) as Record<string, unknown>;
  if (!def?.view.sides || def.view.sides.sideOf(params) !== "read") return null;
  const result = input.result as NormalisedResult | null;
  const t = result?.measurements?.find((m) => m.metric === "throughput");
  if (!t) return null;
  const d = displayMeasurement(t);
  return d.unit === "MiB/s" ? d.value * 1024 : null;
}

const asSample = (p: TelemetryPoint): TelemetrySample => ({ ...p, ...(p.numa ? { numaFree: p.numa } : {}) });

/**
 * The guides' rules applied to what is known of the machine during a run: the agent's telemetry
 * when the run has some, and the run's own samples when its probe draws a timeline (a sampler,
 * launched, imported or a host's history day; lib/diagnosis/run-diagnosis.ts).
 */
export function findingsOf(input: FindingsInput, telemetry: readonly TelemetryPoint[]): RunFinding[] {
  // The same samples mean different things on different hosts (zone_reclaim_mode, a rotational
  // disk): the rules read those facts from the run's own profile snapshot.
  const ctx = contextFromProfile(input.profile);
  const fromTelemetry: Finding[] = telemetry.length > 0 ? diagnose(timelineFromTelemetry(telemetry.map(asSample), { probeReadKBs: probeReadKBs(input) }), ctx) : [];
  // A probe that samples the machine itself is read from its own result too; a rule both
  // sources show is reported once, from the telemetry (the samples the agent took every second).
  const fromResult = (diagnoseResult(input.result, ctx)?.findings ?? []).filter((f) => !fromTelemetry.some((t) => t.rule === f.rule));
  return [...fromTelemetry, ...fromResult].map((f) => ({
    rule: f.rule,
    severity: f.severity,
    title: f.title,
    summary: f.summary,
    mechanism: f.mechanism,
    limits: f.limits,
    evidence: f.evidence,
    guide: f.guide,
    doc: f.doc,
    next: f.next,
  }));
}

/** Findings of one run (an empty list for an unknown run or one with nothing to read). */
export async function getRunFindings(opts: { runId: string }): Promise<RunFinding[]> {
  const run = await db().probeRun.findUnique({ where: { id: opts.runId }, select: { probe: true, params: true, result: true, profile: true } });
  if (!run) return [];
  return findingsOf(run, await readRunTelemetry(opts.runId));
}
