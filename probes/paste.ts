// Parsing what a person pastes (imports and the parse CLI): the paste is normalised
// (probes/core/paste.ts), cut into runs by the probe's own splitter (probes/<tool>/split.ts), and
// each run is read by the probe's ordinary parser. One run parses exactly as the parser alone
// would; several become one result whose measurements carry `run: 1, 2, …` and, where the paste
// shows it, the run's `command`. Live runs never come here: an agent's output is one run.
import { getProbe } from "./catalog";
import { MAX_DIM_CHARS } from "./core/limits";
import { normalisePaste, runSource, runText, type PastedRun } from "./core/paste";
import { clip } from "./core/text";
import type { Measurement, NormalisedResult, ParseOutcome } from "./core/types";

/** One run found in a paste, as the import offers it. */
export interface PastedRunInfo {
  run: number;
  /** "dd if=/dev/zero of=x bs=1M count=64", when the paste shows the command. */
  command: string | null;
  /** `time`'s wall-clock seconds, when the paste shows them. */
  realSeconds: number | null;
  /** The run's lines as pasted (prompt and colour included): stored as its own log when imported as a run of its own. */
  output: string;
}

export type PasteOutcome = ParseOutcome & { runs: PastedRunInfo[] };

const MAX_RUNS = 1000;

function combine(parsed: { run: number; command: string | null; result: NormalisedResult }[], skipped: string[]): NormalisedResult {
  const first = parsed[0]!.result;
  const measurements: Measurement[] = [];
  const warnings: string[] = [...skipped];
  for (const p of parsed) {
    const dims = { run: p.run, ...(p.command ? { command: clip(p.command, MAX_DIM_CHARS) } : {}) };
    for (const m of p.result.measurements) measurements.push({ ...m, dims: { ...m.dims, ...dims } });
    for (const w of p.result.warnings) warnings.push(`run ${p.run}: ${w}`);
  }
  const formats = [...new Set(parsed.map((p) => p.result.format).filter((f): f is string => !!f))];
  const format = formats.length === 1 ? formats[0] : formats.length > 1 ? clip(formats.join(" + "), 64) : undefined;
  const toolVersion = parsed.map((p) => p.result.toolVersion).find((v) => v !== null) ?? null;
  return { tool: first.tool, toolVersion, measurements, warnings, ...(format ? { format } : {}) };
}

/**
 * Never throws. A paste the probe's splitter finds fewer than two runs in is parsed as it is, and
 * when that fails, once more without its prompts, quoting and colour; several runs are parsed one
 * by one, a run its parser refuses being left out with a warning (all refused: the first refusal).
 */
export function parsePaste(probeId: string, output: string): PasteOutcome {
  const probe = getProbe(probeId);
  if (!probe) return { ok: false, error: `unknown probe "${clip(String(probeId), 50)}"`, runs: [] };
  if (typeof output !== "string") return { ok: false, error: `not ${probe.id} output: expected text`, runs: [] };
  let paste: ReturnType<typeof normalisePaste>;
  let runs: PastedRun[];
  try {
    paste = normalisePaste(output);
    runs = probe.splitRuns?.(paste) ?? [];
  } catch (err) {
    // The splitters are written to be total; a bug in one must not cost the single-run parse.
    paste = { lines: [], text: output, sourceLines: [] };
    runs = [];
    void err;
  }
  if (runs.length < 2) {
    const single = runs[0];
    const info: PastedRunInfo[] = [{ run: 1, command: single?.command?.text ?? null, realSeconds: single?.realSeconds ?? null, output }];
    const direct = probe.parse(output);
    if (direct.ok || paste.text === output) return { ...direct, runs: info };
    const cleaned = probe.parse(paste.text);
    return cleaned.ok ? { ...cleaned, runs: info } : { ...direct, runs: info };
  }
  const parsed: { run: number; command: string | null; result: NormalisedResult }[] = [];
  const infos: PastedRunInfo[] = [];
  const skipped: string[] = [];
  let firstError: string | null = null;
  for (const [i, r] of runs.slice(0, MAX_RUNS).entries()) {
    const outcome = probe.parse(runText(r));
    if (!outcome.ok) {
      firstError ??= outcome.error;
      skipped.push(`the ${ordinal(i + 1)} run in the paste${r.command ? ` (${clip(r.command.text, 80)})` : ""} was left out: ${clip(outcome.error, 300)}`);
      continue;
    }
    const run = parsed.length + 1;
    const command = r.command?.text ?? null;
    parsed.push({ run, command, result: outcome.result });
    infos.push({ run, command, realSeconds: r.realSeconds, output: runSource(paste, r) });
  }
  if (runs.length > MAX_RUNS) skipped.push(`only the first ${MAX_RUNS} of ${runs.length} runs were read`);
  if (parsed.length === 0) return { ok: false, error: firstError ?? `not ${probe.id} output: no run found`, runs: [] };
  if (parsed.length === 1) {
    // One run was readable: it is the paste's one run, without a run dimension.
    const only = parsed[0]!.result;
    return { ok: true, result: { ...only, warnings: [...skipped, ...only.warnings] }, runs: infos };
  }
  return { ok: true, result: combine(parsed, skipped), runs: infos };
}

function ordinal(n: number): string {
  const suffix = n % 100 >= 11 && n % 100 <= 13 ? "th" : (["th", "st", "nd", "rd"][n % 10] ?? "th");
  return `${n}${suffix}`;
}
