// Runs the real fio, under a pseudo-terminal through the agent's runner, with the quick preset and
// with a small tree, and parses what it printed: the argv, the engines and the parser agree.
import { mkdtempSync, readdirSync, realpathSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startCommand } from "../agent/pty-runner";
import { expectOk, one } from "../core/testing";
import { fsmetaProbe } from "./probe";

const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), "probebook-fsmeta-")));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function run(input: object) {
  const params = fsmetaProbe.paramsSchema.parse({ ...input, target: dir });
  // The agent makes a private run directory inside the target; so does this test.
  const runDir = mkdtempSync(path.join(dir, "probebook-run-"));
  const spec = fsmetaProbe.buildCommand(params, runDir);
  let output = "";
  const outcome = await startCommand(spec, { target: dir, onData: (t) => (output += t) }).done;
  const left = readdirSync(runDir);
  rmSync(runDir, { recursive: true, force: true });
  return { params, output, outcome, left };
}

describe("fsmeta on the real fio", () => {
  it("quick preset: 5,000 files created, stat'ed and deleted, nothing left behind", async () => {
    const { params, output, outcome, left } = await run(fsmetaProbe.presets.quick!.params);
    expect(outcome).toMatchObject({ exitCode: 0, timedOut: false });
    const r = expectOk(fsmetaProbe.parse(output));
    expect(r.toolVersion).toMatch(/^3\./);
    for (const op of ["create", "stat", "delete"]) {
      const rate = one(r.measurements, "rate", { op, layout: "flat", files: 5000, dirs: 1 });
      expect(rate.value).toBeGreaterThan(0);
      expect(one(r.measurements, "lat_p99", { op }).value).toBeGreaterThan(0);
    }
    expect(fsmetaProbe.extractProgress(output, params)).toMatchObject({ done: 3, total: 3, fraction: 1 });
    expect(left).toEqual([]);
  }, 120_000);

  it("tree: fio makes the directories, one worker fills each, and the directories are gone afterwards", async () => {
    const { output, outcome, left } = await run({ files: 600, dirs: 3 });
    expect(outcome.exitCode).toBe(0);
    const r = expectOk(fsmetaProbe.parse(output));
    expect(one(r.measurements, "rate", { op: "create" }).dims).toEqual({ op: "create", layout: "tree", files: 600, dirs: 3 });
    expect(r.measurements.filter((m) => m.metric === "rate")).toHaveLength(3);
    expect(left).toEqual([]);
  }, 120_000);
});
