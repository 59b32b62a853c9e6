import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { longIozoneOutput } from "../../../probes/iozone/huge-output";
import { wideSarOutput } from "../../../probes/sar/huge-output";
import { ParseWorkers } from "./parse-off-thread";

const fixture = readFileSync(path.join(__dirname, "../../../e2e/probes/iozone-auto-64m.txt"), "utf8");

// A pool of its own, as each instance has one.
const workers = new ParseWorkers();
const parseOffThread = workers.parse.bind(workers);
afterAll(() => workers.stop());

describe("parseOffThread", () => {
  it("parses real output in a worker and hands back the result as JSON text", async () => {
    const r = await parseOffThread({ probe: "iozone", output: fixture });
    expect(r.kind).toBe("parsed");
    if (r.kind !== "parsed") return;
    expect(r.measurements).toBeGreaterThan(0);
    expect(JSON.parse(r.resultJson)).toMatchObject({ tool: "iozone" });
  });

  it("refuses a 4,000-column sar table quickly, before parsing it", async () => {
    const t = Date.now();
    const r = await parseOffThread({ probe: "sar", output: wideSarOutput(4000, 120) });
    expect(r).toMatchObject({ kind: "too-large", message: expect.stringMatching(/more than 2000 columns/) });
    expect(Date.now() - t).toBeLessThan(5000);
  });

  it("applies the measurement cap to the parser's output (180 k iozone rows = 720 k measurements)", async () => {
    // The cap is under test, not the deadline: a loaded machine must not turn it into a time-out.
    const r = await parseOffThread({ probe: "iozone", output: longIozoneOutput(180_000) }, { timeoutMs: 120_000 });
    expect(r).toMatchObject({ kind: "too-large", message: expect.stringMatching(/720,000 measurements; at most 500,000/) });
  });

  it("stops a parse that runs out of time, and the next parse still works", async () => {
    const r = await parseOffThread({ probe: "iozone", output: longIozoneOutput(100_000) }, { timeoutMs: 50 });
    expect(r).toMatchObject({ kind: "gave-up", message: expect.stringMatching(/longer than 0.05 s/) });
    expect((await parseOffThread({ probe: "iozone", output: fixture })).kind).toBe("parsed");
  });

  it("says what the parser could not read", async () => {
    expect(await parseOffThread({ probe: "fio", output: "hello" })).toMatchObject({ kind: "failed" });
  });
});
