// Several runs of fio, iozone and sar in one paste (dd's are in probes/dd/split.test.ts): shell
// sessions captured here with `script` (prompts, the typed-ahead input echoed, sar's colour), and
// reports pasted one after another without prompts.
import { describe, expect, it } from "vitest";
import { allFixtures, expectOk, fixture, one } from "./core/testing";
import { parsePaste } from "./paste";
import { catalog } from "./catalog";
import type { Tool } from "./core/types";

// Reports pasted one after another are put together here from the fixtures, not stored twice.
const CONCATENATED: Record<string, [Tool, string, string]> = {
  "two-fio-json": ["fio", "fio-3.33-seqwrite.json", "fio-3.33-randread4k.json"],
  "two-fio-text": ["fio", "fio-3.33-seqwrite.txt", "fio-3.33-randread4k.txt"],
  "two-iozone": ["iozone", "iozone-auto-64m.txt", "iozone-auto-n8m-g64m.txt"],
};

function read(tool: Tool, name: string) {
  const joined = CONCATENATED[name];
  const outcome = parsePaste(tool, joined ? fixture(joined[0], joined[1]) + fixture(joined[0], joined[2]) : fixture(tool, name));
  return { result: expectOk(outcome), runs: outcome.runs };
}

describe("fio: several runs in one paste", () => {
  const seq = "fio --name=seq --filename=/tmp/pastefx/fio.bin --rw=write --bs=1M --size=16M";
  const rand = "fio --name=rand --filename=/tmp/pastefx/fio.bin --rw=randread --bs=4k --size=16M --runtime=1 --time_based";

  it("two JSON reports in a session, each with its command", () => {
    const { result, runs } = read("fio", "paste-two-json-session.txt");
    expect(runs.map((r) => r.command)).toEqual([`${seq} --output-format=json`, `${rand} --output-format=json`]);
    expect(one(result.measurements, "bw", { job: "seq", direction: "write", run: 1, command: `${seq} --output-format=json` }).value).toBe(2097152000);
    expect(one(result.measurements, "bw", { job: "rand", direction: "read", run: 2, command: `${rand} --output-format=json` }).value).toBe(85823680);
    expect(result.warnings).toEqual([]);
  });

  it("two text reports in a session with `time`", () => {
    const { result, runs } = read("fio", "paste-two-text-session.txt");
    expect(runs.map((r) => [r.command, r.realSeconds])).toEqual([
      [seq, 0.72],
      [rand, 1.605],
    ]);
    // The figure the MiB/s, MB/s and io ÷ runtime of each BW line agree on (probes/fio/exact-bw.ts).
    expect(one(result.measurements, "bw", { job: "seq", direction: "write", run: 1, command: seq }).value).toBe(294312760);
    expect(one(result.measurements, "bw", { job: "rand", direction: "read", run: 2, command: rand }).value).toBe(89575434);
  });

  it("JSON and text reports pasted one after another, without prompts", () => {
    for (const [name, jobs] of [
      ["two-fio-json", ["seqwrite", "randread4k"]],
      ["two-fio-text", ["seqwrite", "randread4k"]],
    ] as const) {
      const { result, runs } = read("fio", name);
      expect(runs, name).toHaveLength(2);
      const single = [expectOk(catalog.fio.parse(fixture("fio", CONCATENATED[name]![1])))];
      const bw = single[0]!.measurements.find((m) => m.metric === "bw" && m.dims.direction === "write")!;
      expect(one(result.measurements, "bw", { ...bw.dims, run: 1 }).value).toBe(bw.value);
      expect(new Set(result.measurements.filter((m) => m.dims.run === 2).map((m) => m.dims.job))).toEqual(new Set([jobs[1]]));
    }
  });

  it("one fio report with two groups stays one run", () => {
    expect(parsePaste("fio", fixture("fio", "fio-3.33-two-groups.txt")).runs).toHaveLength(1);
    expect(parsePaste("fio", fixture("fio", "fio-3.33-two-groups.json")).runs).toHaveLength(1);
  });
});

describe("iozone: several reports in one paste", () => {
  it("a session's two reports, each with its command", () => {
    const { result, runs } = read("iozone", "paste-two-reports-session.txt");
    expect(runs.map((r) => r.command)).toEqual(["iozone -i 0 -i 1 -s 4m -r 64k -f /tmp/pastefx/ioz.tmp", "iozone -i 0 -i 1 -s 8m -r 128k -f /tmp/pastefx/ioz.tmp"]);
    expect(one(result.measurements, "write", { file_kib: 4096, record_kib: 64, run: 1, command: runs[0]!.command! }).value).toBe(4922872);
    expect(one(result.measurements, "write", { file_kib: 8192, record_kib: 128, run: 2, command: runs[1]!.command! }).value).toBe(4893987);
  });

  it("two reports pasted one after another take their commands from iozone's 'Command line used'", () => {
    const { runs } = read("iozone", "two-iozone");
    expect(runs.map((r) => r.command)).toEqual(["iozone -a -s 64m -q 256 -y 4 -i 0 -i 1 -i 2", "iozone -a -n 8m -g 64m -q 256 -y 4 -i 0 -i 1"]);
  });
});

describe("sar: several reports in one paste", () => {
  it("a coloured session with `sar -u` then `sar -r`", () => {
    const { result, runs } = read("sar", "paste-two-reports-session.txt");
    expect(runs.map((r) => r.command)).toEqual(["sar -u 1 2", "sar -r 1 2"]);
    expect(one(result.measurements, "kbmemfree", { section: "memory", time: "19:55:00", run: 2, command: "sar -r 1 2" }).value).toBe(9319760);
    expect(new Set(result.measurements.filter((m) => m.dims.run === 1).map((m) => m.metric))).toContain("%user");
  });
});

describe("a paste of one run parses exactly as its parser alone", () => {
  it("every fixture the splitters find one run in", () => {
    let checked = 0;
    for (const { name, text } of allFixtures()) {
      const tool = name.split("/")[0] as Tool;
      const pasted = parsePaste(tool, text);
      if (pasted.runs.length !== 1) continue;
      const alone = catalog[tool].parse(text);
      if (!alone.ok) continue;
      expect({ ok: pasted.ok, ...(pasted.ok ? { result: pasted.result } : {}) }, name).toEqual(alone);
      checked++;
    }
    expect(checked).toBeGreaterThan(100);
  });
});
