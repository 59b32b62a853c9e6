import type { ImportPreviewInput, ImportRunInput } from "../../api/schemas/runs";
import { AppError } from "../../http/app-error";
import { parseForStorage, storeParsedRun, type ParseRefusals, type Parsed } from "./store-parsed-run";

const REFUSALS: ParseRefusals = {
  unreadable: (error) => error,
  tooLarge: (message) => `This output is too large to import: ${message}`,
  gaveUp: (message) => `This output could not be imported: ${message}`,
};

/** "2 dd runs found". */
export function runsFound(probe: string, n: number): string {
  return `${n} ${probe} run${n === 1 ? "" : "s"} found`;
}

/** A run's note: the command it ran (when the paste shows it), then the importer's own note. */
function noteOf(command: string | null, notes: string | undefined): string | null {
  const parts = [command ? `$ ${command}` : null, notes || null].filter((p): p is string => !!p);
  return parts.length > 0 ? parts.join("\n").slice(0, 5000) : null;
}

/**
 * Keeps existing tool output as a run: parsed with the same catalog parser as live runs (in a
 * worker, with caps), through probes/paste.ts because a person pasted it (prompts, `time`
 * reports, quoting, several runs), stored with origin IMPORTED, and its raw text kept as the
 * run's log so it can be re-parsed later (store-parsed-run.ts, shared with host history days).
 * A paste holding several runs becomes, as `input.runs` chooses, a run each (its own lines of the
 * paste as its log, its command line as its note) or one run whose measurements carry
 * `run: 1…N`; without a choice it is refused naming the field. Output the parser cannot read is
 * refused with the parser's own message (400), output beyond the caps with 413, a parse out of
 * time or memory with 422; nothing is stored then.
 */
export async function importRun({
  input,
  createdById,
}: {
  input: ImportRunInput;
  createdById: string;
}): Promise<{ id: string; ids: string[]; format: string | null; runs: number }> {
  const parsed = await parseForStorage(input.probe, input.output, REFUSALS, { paste: true });
  const found = parsed.runs ?? [];
  const run = { probe: input.probe, origin: "IMPORTED", hostId: null, hostLabel: input.hostLabel, createdById, historyDay: null } as const;
  if (found.length > 1 && !input.runs) {
    const message = `This output holds ${runsFound(input.probe, found.length).replace(/ found$/, "")}: choose runs "separate" (${found.length} runs) or "series" (one run with run: 1…${found.length}).`;
    throw new AppError("BAD_REQUEST", message, { runs: [message] });
  }
  if (found.length > 1 && input.runs === "separate") {
    // Every run is read before any is stored, so a run the parser refuses stores none of them.
    const each: { parsed: Parsed; output: string; command: string | null }[] = [];
    // Read as a paste too (its lines keep their prompt and quoting), as a re-parse of its log would.
    for (const r of found) each.push({ parsed: await parseForStorage(input.probe, r.output, REFUSALS, { paste: true }), output: r.output, command: r.command });
    const ids: string[] = [];
    // An import has no host and no day, so nothing can conflict with it.
    for (const e of each) ids.push((await storeParsedRun({ ...run, notes: noteOf(e.command, input.notes) }, e.output, e.parsed))!.id);
    return { id: ids[0]!, ids, format: parsed.format, runs: found.length };
  }
  const stored = (await storeParsedRun({ ...run, notes: input.notes || null }, input.output, parsed))!;
  // Which output form the parser recognised, so the person importing can check it guessed right.
  return { id: stored.id, ids: [stored.id], format: parsed.format, runs: Math.max(found.length, 1) };
}

/** What an import of this output would read, stored nowhere: its form and its runs. */
export async function previewImport({ input }: { input: ImportPreviewInput }) {
  const parsed = await parseForStorage(input.probe, input.output, REFUSALS, { paste: true });
  const runs = (parsed.runs ?? [{ run: 1, command: null, realSeconds: null }]).map((r) => ({ run: r.run, command: r.command, realSeconds: r.realSeconds }));
  return { format: parsed.format, measurements: parsed.measurements, runs, summary: runsFound(input.probe, runs.length) };
}
