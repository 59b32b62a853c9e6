// What `npm run probe -- parse <tool> <file>` does with a file, shared with the test that runs it
// over every fixture (scripts/probe-cli-fixtures.test.ts): read it as UTF-8 (as the agent stores
// output) and read it like an import: a file may be a pasted session holding several runs
// (probes/paste.ts), each a measurement set with its run number.
import fs from "node:fs";
import type { ProbeId } from "../probes/catalog";
import { parsePaste, type PasteOutcome } from "../probes/paste";

/** Throws the read error (ENOENT, EISDIR, …) for the caller to word; never a parse error. */
export function readOutput(file: string): string {
  return fs.readFileSync(file === "-" ? 0 : file, "utf8");
}

export function parseAs(tool: ProbeId, output: string): PasteOutcome {
  return parsePaste(tool, output);
}
