// The live trackers against the whole-log functions they stand in for: fed a fixture in random
// pieces, after every piece a tracker's bar equals the probe's extractProgress of the text so far
// and its series equal view.progress(null, text so far), for every probe and fixture.
import { describe, expect, it } from "vitest";
import { catalog, probeIds, resolvePreset, type AnyProbe, type AnyProbeParams } from "./catalog";
import { allFixtures } from "./core/testing";
import type { Tool } from "./core/types";
import { liveProbeIds, liveProgressFor } from "./live-catalog";

const PRESET: Record<Tool, string> = { iozone: "iozone:auto-64m", dd: "dd:write-direct", sar: "sar:all", fio: "fio:rand-read-4k", fsmeta: "fsmeta:tree-50k" };
function paramsOf(tool: Tool): AnyProbeParams {
  const preset = resolvePreset(PRESET[tool]);
  if (!preset) throw new Error(`missing preset ${PRESET[tool]}`);
  return catalog[tool].paramsSchema.parse({ ...preset.params, target: "/srv/t" });
}

/**
 * Which fixtures a live run can produce. The agent runs sar with LC_ALL=C and ISO times, so the
 * sar tracker reads C-locale text; translated, 12-hour and sadf fixtures are imports only.
 */
const liveForm = (name: string) => !name.startsWith("sar/") || /^sar\/(gen-sar-|sar-)[^/]*\.txt$/.test(name);

/** A small deterministic generator (probes/ may not import lib/seeded-random.ts): the same cuts every run. */
function seededRandom(seed: number): () => number {
  let x = seed * 2654435761;
  return () => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 4294967296);
}

/** Cut points: random pieces from one character to a few hundred, plus cuts inside \r\n pairs. */
function cuts(text: string, seed: number): number[] {
  const rnd = seededRandom(seed);
  const out = new Set<number>();
  for (let i = 0; i < text.length; ) {
    i += 1 + Math.floor(rnd() * (rnd() < 0.3 ? 8 : 400));
    out.add(Math.min(i, text.length));
  }
  for (let i = text.indexOf("\r\n"); i >= 0 && out.size < 400; i = text.indexOf("\r\n", i + 1)) out.add(i + 1);
  return [...out].sort((a, b) => a - b);
}

describe("the browser's live catalog", () => {
  it("has a tracker for every probe of the catalog, and none for an unknown one", () => {
    expect([...liveProbeIds].sort()).toEqual([...probeIds].sort());
    expect(liveProgressFor("nope", {})).toBeNull();
  });

  it.each(probeIds)("%s: the tracker fed in pieces says what the whole-log functions say", (tool) => {
    const probe = catalog[tool] as AnyProbe;
    const params = paramsOf(tool);
    const fixtures = allFixtures([tool]).filter((f) => liveForm(f.name));
    expect(fixtures.length).toBeGreaterThan(0);
    for (const { name, text } of fixtures) {
      for (const seed of [1, 2]) {
        const t = liveProgressFor(tool, params)!;
        let at = 0;
        let checked = 0;
        for (const cut of cuts(text, seed)) {
          t.append(text.slice(at, cut));
          at = cut;
          // Every cut for small fixtures; a sample of them for large ones (each check re-reads the whole prefix).
          if (text.length > 60_000 && checked++ % 25 !== 0 && cut !== text.length) continue;
          const prefix = text.slice(0, cut);
          expect(t.current(), `${name} bar at ${cut} (seed ${seed})`).toEqual(probe.extractProgress(prefix, params));
          expect(t.series(), `${name} series at ${cut} (seed ${seed})`).toEqual(probe.view.progress?.(null, prefix) ?? []);
        }
      }
    }
  }, 180_000);

  it("survives input that is not the probe's output, and keeps a stable series array", () => {
    for (const tool of probeIds) {
      const t = liveProgressFor(tool, paramsOf(tool))!;
      for (const piece of ["\x1b[31", "m\r", "\n", "\u0000garbage ", "12:00:00 x y\r\n", "Jobs: 1 (f=1): [", "]"]) t.append(piece);
      expect(() => t.current()).not.toThrow();
      expect(t.series()).toBe(t.series());
    }
    // Parameters the page could not check give no progress rather than an error.
    expect(() => liveProgressFor("dd", null)?.append("1+0 records in\n")).not.toThrow();
  });
});
