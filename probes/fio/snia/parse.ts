// Reads a SNIA-style run's output: one step frame per fio process (probes/core/steps.ts), the
// precondition first, then the rounds. Every round is kept (its IOPS as `round_iops`, its bytes
// and runtime), the last round's whole report stands for the run (bandwidth, IOPS, the
// percentile curve), and the steady-state verdict is recomputed here from the rounds, so a stored
// output always yields the same verdict as the agent's decision to stop.
import { failure, success } from "../../core/probe";
import { splitSteps } from "../../core/steps";
import type { Measurement, ParseOutcome } from "../../core/types";
import { roundIops } from "./rounds";
import { SNIA_MAX_ROUNDS, steadyVerdict } from "./rule";

type StepParser = (output: string) => ParseOutcome;

/** Each step's bytes and runtime, tagged with the step, so the checks add up everything written. */
function stepTotals(ms: readonly Measurement[], step: string): Measurement[] {
  return ms.filter((m) => m.metric === "io_bytes" || m.metric === "runtime").map((m) => ({ ...m, dims: { ...m.dims, step } }));
}

export function parseSniaOutput(output: string, parseStep: StepParser): ParseOutcome {
  const steps = splitSteps(output);
  if (steps.length === 0) return failure("not a SNIA-style fio run: no step frames");
  const [pre, ...roundSteps] = steps;
  const preParsed = parseStep(pre!.output);
  if (!preParsed.ok) return failure(`the precondition failed: ${preParsed.error}`);
  const measurements: Measurement[] = stepTotals(preParsed.result.measurements, "precondition");
  const warnings: string[] = [];
  const rounds: number[] = [];
  let last: Measurement[] | null = null;
  for (const s of roundSteps) {
    const parsed = parseStep(s.output);
    const iops = parsed.ok ? roundIops(parsed.result.measurements) : null;
    if (!parsed.ok || iops === null) {
      // A round cut short (a cancel, a failure) has no report: the rounds before it still count.
      warnings.push(`round ${rounds.length + 1} has no fio report (${parsed.ok ? "no IOPS" : parsed.error}); the verdict uses the ${rounds.length} rounds before it`);
      break;
    }
    rounds.push(iops);
    const round = String(rounds.length);
    measurements.push({ metric: "round_iops", value: iops, unit: "1/s", dims: { round } }, ...stepTotals(parsed.result.measurements, `round ${round}`));
    last = parsed.result.measurements;
  }
  if (!last) return failure(`the precondition ran but no round finished${warnings.length ? `: ${warnings.join("; ")}` : ""}`);
  // The last round's figures stand for the run, less its bytes and runtime (already tagged above).
  measurements.push(...last.filter((m) => m.metric !== "io_bytes" && m.metric !== "runtime"));
  const v = steadyVerdict(rounds);
  measurements.push({ metric: "ss_reached", value: v.reached ? 1 : 0, unit: "count", dims: {} }, { metric: "ss_rounds", value: v.rounds, unit: "count", dims: {} });
  if (v.window) {
    measurements.push(
      { metric: "ss_window_iops", value: v.window.mean, unit: "1/s", dims: { rounds: `${v.window.fromRound}-${v.window.toRound}` } },
      { metric: "ss_range", value: v.window.rangeShare * 100, unit: "%", dims: {} },
      { metric: "ss_excursion", value: v.window.excursionShare * 100, unit: "%", dims: {} },
    );
  }
  if (!v.reached) {
    warnings.push(
      rounds.length >= SNIA_MAX_ROUNDS
        ? `steady state not reached in ${SNIA_MAX_ROUNDS} rounds`
        : `steady state not reached: the run ended after ${rounds.length} of at most ${SNIA_MAX_ROUNDS} rounds`,
    );
  } else if (rounds.length > v.rounds) {
    warnings.push(`steady state held at round ${v.rounds}, but ${rounds.length} rounds ran`);
  }
  const r = preParsed.result;
  return success("fio", r.toolVersion, measurements, [...warnings, ...r.warnings.filter((w) => !warnings.includes(w))], `${r.format ?? "fio"}, SNIA rounds`);
}
