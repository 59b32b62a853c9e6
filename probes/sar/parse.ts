import { failure, guardParse, success } from "../core/probe";
import { clip } from "../core/text";
import type { Measurement, ParseOutcome } from "../core/types";
import { deriveVmeff } from "./derive";
import { parseSadfCsv } from "./parse-sadf";
import { parseSadfJson } from "./parse-sadf-json";
import { parseSadfP, SADF_P_RE } from "./parse-sadf-p";
import { parseSarText } from "./parse-text";

function done(toolVersion: string | null, raw: Measurement[], warnings: string[], format: string): ParseOutcome {
  const { measurements, derived } = deriveVmeff(raw);
  const notes = derived > 0
    ? [...warnings, "%vmeff was computed as 100 × pgsteal/s ÷ (pgscank/s + pgscand/s): this sysstat version (≥ 12.7.5) no longer prints it"]
    : warnings;
  return success("sar", toolVersion, measurements, notes, format);
}

function parseJson(output: string): ParseOutcome {
  const start = output.indexOf("{");
  const end = output.lastIndexOf("}");
  let json: unknown;
  try {
    json = JSON.parse(output.slice(start, end + 1));
  } catch (err) {
    return failure(`sadf JSON could not be read: ${err instanceof Error ? clip(err.message, 160) : "invalid JSON"}`);
  }
  const r = parseSadfJson(json);
  if (r.measurements.length === 0) return failure(`sadf JSON has no statistics${r.warnings.length ? `: ${r.warnings.join("; ")}` : ""}`);
  return done(r.toolVersion, r.measurements, r.warnings, "sadf -j (JSON)");
}

/**
 * One parser for everything sysstat prints: sar's text report (any locale, 12- or 24-hour
 * times), sadf -j JSON, sadf -d CSV and sadf -p lines. The format is recognised from the text itself.
 */
export const parseSar = guardParse("sar", (output: string): ParseOutcome => {
  // sadc's daily files (saDD) are binary: sar and sadf print them, text is what is parsed here.
  if (output.slice(0, 4096).includes("\u0000")) {
    return failure("not sar output: a binary sysstat data file (saDD); print it with `sadf -j FILE -- -A` or `sar -A -f FILE` and parse that");
  }
  if (/"sysstat"\s*:/.test(output) && output.includes("{")) return parseJson(output);
  if (/^#\s*hostname;interval;timestamp;/m.test(output)) {
    const r = parseSadfCsv(output);
    if (r.measurements.length === 0) return failure("sadf CSV has no rows");
    return done(null, r.measurements, r.warnings, "sadf -d (CSV)");
  }
  if (SADF_P_RE.test(output)) {
    const p = parseSadfP(output);
    if (p.measurements.length > 0) return done(null, p.measurements, p.warnings, "sadf -p");
  }
  const r = parseSarText(output);
  if (r.measurements.length === 0) {
    if (r.errors.length > 0) return failure(`sar failed: ${clip(r.errors.join("; "), 400)}`);
    if (r.tables > 0 || /^Linux\s+\S+\s+\(/m.test(output)) {
      return failure("sar output has no samples: the run ended before the first interval");
    }
    return failure("not sar output: no sar table found");
  }
  const version = /sysstat version (\d+(?:\.\d+)+)/.exec(output)?.[1] ?? null;
  return done(version, r.measurements, r.warnings, r.traits.length > 0 ? `sar text (${r.traits.join(", ")})` : "sar text");
});
