// A run's result checked against what the machine did (probes/checks/types.ts). One entry:
// `checkRun` asks the run's probe what it claims to have done (`ProbeDefinition.checks`, one
// function per probe kind in probes/<tool>/checks.ts) and holds that against the run's own
// telemetry with the shared rules below, so every probe is judged by the same thresholds.
import { getProbe } from "../catalog";
import { isMemoryBacked } from "../core/sizing";
import type { NormalisedResult } from "../core/types";
import type { TelemetrySample } from "../telemetry/types";
import { cacheServedRead, deviceBusyElsewhere, writeNotOnDevice } from "./device";
import { cpuBusyElsewhere, tooFewSamples, tooShort } from "./generic";
import { deviceTotals } from "./telemetry-totals";
import type { CheckFacts, RunCheck } from "./types";

export type { CheckFacts, ProbeClaim, RunCheck } from "./types";

export interface CheckRunInput {
  probe: string;
  /** The run's parameters, validated again here with the probe's schema. */
  params: unknown;
  result: NormalisedResult;
  /** The run's wall time as the agent measured it, null when unknown. */
  durationMs: number | null;
  samples: readonly TelemetrySample[];
  facts: CheckFacts;
}

export interface CheckRunOutput {
  flags: RunCheck[];
  /** False when there was no telemetry to check against: only the run's own duration was judged. */
  checkedAgainstTelemetry: boolean;
}

export function checkRun(input: CheckRunInput): CheckRunOutput {
  const checkedAgainstTelemetry = input.samples.length > 0;
  const probe = getProbe(input.probe);
  // An observer (sar) measures the machine, not a target: other workloads are what it records.
  if (!probe || probe.role !== "benchmark") return { flags: [], checkedAgainstTelemetry };
  const params = probe.paramsSchema.safeParse(input.params);
  const claim = params.success && probe.checks ? probe.checks.claim(params.data, input.result) : null;
  const durationSeconds = input.durationMs !== null ? input.durationMs / 1000 : null;
  const flags: (RunCheck | null)[] = [tooShort(claim?.tool ?? probe.id, claim ? claim.measuredSeconds : null, durationSeconds), tooFewSamples(input.samples)];
  if (claim && checkedAgainstTelemetry) {
    // tmpfs and ramfs keep files in the page cache itself: no device, so no device checks.
    const dev = isMemoryBacked({ fsType: input.facts.fsType ?? null, medium: null }) ? null : deviceTotals(input.samples);
    if (dev) flags.push(writeNotOnDevice(claim, dev), cacheServedRead(claim, dev), input.facts.exclusiveDevice ? null : deviceBusyElsewhere(claim, dev));
    // A write through the page cache is written back by the kernel's flusher threads, on other
    // CPUs than the writer's: that CPU is the probe's own work, so it counts as one more thread.
    const flusher = claim.write && !claim.write.reachesDevice ? 1 : 0;
    flags.push(cpuBusyElsewhere(claim.tool, claim.threads + flusher, input.facts.cpuCount, input.samples));
  }
  if (params.success && probe.checks?.flags) flags.push(...probe.checks.flags(params.data, input.result));
  return { flags: flags.filter((f): f is RunCheck => f !== null), checkedAgainstTelemetry };
}
