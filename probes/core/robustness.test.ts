// "Never crash on bad input", for all four parsers and progress extractors: random text, every
// prefix of every real and hand-written fixture (live output arrives cut anywhere), outputs of
// the other tools, concatenations and damaged fixtures.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { catalog, probeIds, resolvePreset, type AnyProbe, type AnyProbeParams } from "../catalog";
import { allFixtures, expectValidProgress, expectWellFormed, noisyText, prefixLengths } from "./testing";
import type { Tool } from "./types";

const everything = allFixtures();

// Parameters of one preset per probe, for the progress extractors.
const PRESET: Record<Tool, string> = { iozone: "iozone:auto-64m", dd: "dd:write-direct", sar: "sar:all", fio: "fio:rand-read-4k", fsmeta: "fsmeta:tree-50k" };
function paramsOf(tool: Tool): AnyProbeParams {
  const preset = resolvePreset(PRESET[tool]);
  if (!preset) throw new Error(`missing preset ${PRESET[tool]}`);
  return catalog[tool].paramsSchema.parse({ ...preset.params, target: "/srv/t" });
}

function check(tool: Tool, text: string): void {
  const probe = catalog[tool] as AnyProbe;
  expectWellFormed(probe.parse(text), tool);
  expectValidProgress(probe.extractProgress(text, paramsOf(tool)));
}

describe.each(probeIds)("%s parser and progress extractor", (tool) => {
  it("survive random text", () => {
    fc.assert(fc.property(noisyText(), (text) => check(tool, text)), { numRuns: 400 });
  });

  it("survive every prefix of their own fixtures, and progress never goes backwards", () => {
    const probe = catalog[tool] as AnyProbe;
    const params = paramsOf(tool);
    for (const { name, text } of everything.filter((f) => f.name.startsWith(`${tool}/`))) {
      let previous = 0;
      for (const n of prefixLengths(text)) {
        const prefix = text.slice(0, n);
        expectWellFormed(probe.parse(prefix), tool);
        const progress = probe.extractProgress(prefix, params);
        expectValidProgress(progress);
        if (progress) {
          expect(progress.done, `${name} at ${n}`).toBeGreaterThanOrEqual(previous);
          previous = progress.done;
        }
      }
    }
    // Thousands of parses per fixture: a bound for a loaded machine, not a speed target.
  }, 180_000);

  it("survive sampled prefixes of the other tools' fixtures", () => {
    for (const { text } of everything.filter((f) => !f.name.startsWith(`${tool}/`))) {
      for (const n of prefixLengths(text, 300)) check(tool, text.slice(0, n));
    }
    // Hundreds of parses per fixture: a bound for a loaded machine, not a speed target.
  }, 180_000);

  it("survive concatenated and damaged outputs", () => {
    const piece = fc.constantFrom(...everything.map((f) => f.text));
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 3 }), noisyText(), fc.nat(), (parts, noise, at) => {
        const joined = parts.join("\n");
        check(tool, joined);
        const cut = at % (joined.length + 1);
        check(tool, joined.slice(0, cut) + noise + joined.slice(cut));
      }),
      { numRuns: 150 },
    );
  });
});

describe("parsers recognise only their own tool", () => {
  it.each(everything.map((f) => [f.name, f.text] as const))("%s", (name, text) => {
    const own = name.split("/")[0] as Tool;
    for (const tool of probeIds) {
      const outcome = catalog[tool].parse(text);
      if (tool !== own) expect(outcome.ok, `${tool} accepted ${name}`).toBe(false);
    }
  });
});

describe("results stay within the stored-result limits", () => {
  const long = "x".repeat(1000);
  it.each([
    ["sar", `12:00:00          DEV       tps\n12:00:01   ${long}      1.00\n`],
    ["sar", JSON.stringify({ sysstat: { hosts: [{ statistics: [{ timestamp: { time: "10:00:00" }, disk: [{ "disk-device": long, tps: 1, [long]: 2 }] }] }] } })],
    ["sar", `# hostname;interval;timestamp;DEV;tps;${long}\nvm;1;2026-11-21 12:00:00 UTC;${long};1.0;2.0\n`],
    ["fio", JSON.stringify({ "fio version": "fio-3.33", jobs: [{ jobname: long, error: 0, read: { io_bytes: 1, bw_bytes: 1, iops: 1 } }] })],
    ["iozone", `\tChildren see throughput for  2 ${long} \t= 1.00 kB/sec\n\tChildren see throughput for  2 readers \t= 2.00 kB/sec\n`],
  ] as const)("%s", (tool, text) => {
    const outcome = catalog[tool].parse(text);
    expect(outcome.ok).toBe(true);
    expectWellFormed(outcome, tool);
  });
});
