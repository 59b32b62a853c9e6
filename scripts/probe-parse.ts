// What `npm run probe -- parse <tool> <file>` does with a file, shared with the test that runs it
// over every fixture (scripts/probe-cli-fixtures.test.ts): read it as UTF-8 (as the agent stores
// output) and hand it to the tool's parser through the catalog.
import fs from "node:fs";
import { parseOutput, type ParseOutcome, type ProbeId } from "../probes/catalog";

/** Throws the read error (ENOENT, EISDIR, …) for the caller to word; never a parse error. */
export function readOutput(file: string): string {
  return fs.readFileSync(file === "-" ? 0 : file, "utf8");
}

export function parseAs(tool: ProbeId, output: string): ParseOutcome {
  return parseOutput(tool, output);
}
