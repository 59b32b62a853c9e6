// "The parse CLI reads every fixture in the repository with no refusal except the deliberate
// 'not X output' cases": every file under probes/*/fixtures and probes/*/version-fixtures (at any
// depth) goes through the CLI's own parse path (scripts/probe-parse.ts) as the tool the CLI would
// be given for it, and any refusal not listed below with its reason fails the test.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { isProbeId, probeIds, type ProbeId } from "../probes/catalog";
import { parseAs, readOutput } from "./probe-parse";

const root = path.resolve(__dirname, "..");

// Files that are not a tool's output at all: documentation and captures other parts read.
const NOT_OUTPUT: [RegExp, string][] = [
  [/(^|\/)README\.md$|\/INDEX\.txt$/, "documentation of the fixtures beside it"],
  [/^probes\/profile\/fixtures\//, "host profile inputs (os-release, lscpu, meminfo …) read by the profile, not by a probe's parser"],
  [/^probes\/checks\/fixtures\/telemetry-/, "telemetry samples recorded during runs, read by the checks, not a tool's output"],
];

// Refusals on purpose, each with why. `expect` is what the refusal must say, so that a file
// refused for another reason (a parser regression) still fails.
const DELIBERATE: { file: RegExp; why: string; expect: RegExp }[] = [
  { file: /\/version-fixtures\/version-[a-z]+\.txt$/, why: "`tool --version` output, read by the agent's capability detection, holds no results", expect: /^not \w+ (JSON )?output|has no results/ },
  { file: /\/fixtures\/sysstat\/[^/]+\/data-[^/]+\.sa$|\/fixtures\/history\/sa-busy$|\/fixtures\/locales\/data\.sa$/, why: "binary sysstat data files (the locale fixtures' data.sa is what sar printed them from); the history importer prints them with sadf first", expect: /^not sar output: a binary sysstat data file/ },
  { file: /^probes\/dd\/fixtures\/.*error.*\.stderr\.txt$/, why: "dd failed (missing file, full disk, unaligned direct I/O): its error is the answer", expect: /^dd (failed|could not open)/ },
  { file: /^probes\/dd\/fixtures\/dd-write-direct\.stdout\.txt$/, why: "dd's empty stdout: the summary is on stderr", expect: /^no dd output: dd prints its summary on stderr/ },
  { file: /^probes\/iozone\/fixtures\/iozone-error-/, why: "iozone could not open its test file", expect: /^iozone could not open/ },
  { file: /^probes\/fio\/fixtures\/fio-error-unaligned-direct\.json$/, why: "fio's job failed with EINVAL", expect: /^fio job "bad" failed with error 22/ },
  { file: /^probes\/fio\/fixtures\/fio-error-unaligned-direct\.stderr\.txt$/, why: "fio's stderr of that failed job: no report at all", expect: /^not fio JSON output/ },
  { file: /^probes\/fsmeta\/fixtures\/fsmeta-error-out-of-inodes\.txt$/, why: "the metadata probe's create step ran out of inodes", expect: /create step failed with error 28/ },
];

function walk(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

function allFixtures(): string[] {
  return fs.readdirSync(path.join(root, "probes")).flatMap((owner) =>
    ["fixtures", "version-fixtures"].flatMap((kind) => {
      const dir = path.join(root, "probes", owner, kind);
      return fs.existsSync(dir) ? walk(dir).map((f) => path.relative(root, f).split(path.sep).join("/")) : [];
    }),
  );
}

/**
 * The tool the CLI would be told: the probe whose folder holds the file, or — for shared folders
 * such as probes/checks/fixtures — the probe the file is named after ("iozone-auto-64m.txt").
 */
function toolFor(file: string): ProbeId | null {
  const owner = file.split("/")[1] ?? "";
  if (isProbeId(owner)) return owner;
  const name = path.basename(file);
  return probeIds.find((id) => name.startsWith(`${id}-`)) ?? null;
}

describe("npm run probe -- parse over every fixture of the repository", () => {
  const files = allFixtures();

  it("finds the fixture folders of every probe, nested ones included", () => {
    for (const id of probeIds) expect(files.some((f) => toolFor(f) === id), id).toBe(true);
    expect(files.some((f) => f.startsWith("probes/sar/fixtures/sysstat/12.0.0/"))).toBe(true);
    expect(files.some((f) => f.startsWith("probes/fio/fixtures/live/"))).toBe(true);
    expect(files.length).toBeGreaterThan(200);
  });

  it("reads every one, and refuses only the deliberate cases, for their stated reason", () => {
    const problems: string[] = [];
    const deliberateSeen = new Set<number>();
    let read = 0;
    for (const file of files) {
      if (NOT_OUTPUT.some(([re]) => re.test(file))) continue;
      const tool = toolFor(file);
      if (!tool) {
        problems.push(`${file}: no probe would be given this file; name it after its tool or list it in NOT_OUTPUT with why`);
        continue;
      }
      const outcome = parseAs(tool, readOutput(path.join(root, file)));
      const deliberate = DELIBERATE.findIndex((d) => d.file.test(file));
      if (deliberate >= 0) {
        deliberateSeen.add(deliberate);
        const rule = DELIBERATE[deliberate]!;
        if (outcome.ok) problems.push(`${file}: listed as a deliberate refusal (${rule.why}) but it parsed`);
        else if (!rule.expect.test(outcome.error)) problems.push(`${file}: refused, but not for the listed reason: ${outcome.error}`);
        continue;
      }
      if (!outcome.ok) {
        problems.push(`${file} (${tool}): ${outcome.error.split("\n")[0]}`);
        continue;
      }
      if (outcome.result.tool !== tool) problems.push(`${file}: read as ${outcome.result.tool}, not ${tool}`);
      else if (outcome.result.measurements.length === 0) problems.push(`${file}: no measurements`);
      else read++;
    }
    expect(problems).toEqual([]);
    // Every listed refusal still matches a file: the list says what is deliberate, nothing stale.
    expect(DELIBERATE.map((d, i) => (deliberateSeen.has(i) ? null : d.file.source)).filter(Boolean)).toEqual([]);
    expect(read).toBeGreaterThan(150);
  });
});
