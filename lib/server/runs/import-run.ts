import type { ImportRunInput } from "../../api/schemas/runs";
import { parseForStorage, storeParsedRun } from "./store-parsed-run";

/**
 * Keeps existing tool output as a run: parsed with the same catalog parser as live runs (in a
 * worker, with caps), stored with origin IMPORTED, and its raw text kept as the run's log so it
 * can be re-parsed later (store-parsed-run.ts, shared with host history days). Output the parser
 * cannot read is refused with the parser's own message (400), output beyond the caps with 413, a
 * parse out of time or memory with 422; nothing is stored then.
 */
export async function importRun({ input, createdById }: { input: ImportRunInput; createdById: string }): Promise<{ id: string; format: string | null }> {
  const parsed = await parseForStorage(input.probe, input.output, {
    unreadable: (error) => error,
    tooLarge: (message) => `This output is too large to import: ${message}`,
    gaveUp: (message) => `This output could not be imported: ${message}`,
  });
  const run = { probe: input.probe, origin: "IMPORTED", hostId: null, hostLabel: input.hostLabel, notes: input.notes || null, createdById, historyDay: null } as const;
  // An import has no host and no day, so nothing can conflict with it.
  const stored = (await storeParsedRun(run, input.output, parsed))!;
  // Which output form the parser recognised, so the person importing can check it guessed right.
  return { id: stored.id, format: parsed.format };
}
