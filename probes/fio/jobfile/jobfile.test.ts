// The job-file test set: every refused fixture names its option, line and reason (its first
// line, "; expect: …"), every accepted one passes, and the server's check (admitProbe on the
// API's params, as lib/server/runs/create-run.ts calls it) and the agent's (guardJob, on a real
// directory with the real fio on PATH) give the same answer on each file.
import { randomUUID } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { admitProbe } from "../../admission";
import { guardJob } from "../../agent/job-guard";
import { removeRunDir } from "../../agent/run-dir";
import { buildFioCommand, fioRequiredFreeBytes } from "../command";
import { fioParamsSchema } from "../params";
import { parseJobFile } from "./parse";
import { sizeBytes, timeSeconds } from "./units";
import { JOB_FILE_MAX_BYTES, validateJobFile } from "./validate";

const dir = path.join(__dirname, "fixtures");
const files = (kind: string) => readdirSync(path.join(dir, kind)).filter((f) => f.endsWith(".fio")).sort();
const read = (kind: string, f: string) => readFileSync(path.join(dir, kind, f), "utf8");
const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), "probebook-jobfile-")));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const TiB = 1024 ** 4;
/** The server's answer: what create-run does with a body's params (no preset). */
function serverAnswer(jobFile: string): string | null {
  const a = admitProbe({ probe: "fio", params: { target: root, jobFile } }, { allowedDirs: [root], toolInstalled: true, freeBytesIn: () => 2 * TiB });
  if (a.ok) return null;
  if (a.refusal.kind !== "invalid-params") return `refused: ${a.refusal.kind}`;
  // create-run answers these under "params.<field>"
  expect(Object.keys(a.refusal.fieldErrors)).toEqual(["jobFile"]);
  return a.refusal.message;
}
/** The agent's answer: its guard on the job as claimed. */
async function agentAnswer(jobFile: string): Promise<string | null> {
  const r = await guardJob({ runId: randomUUID(), probe: "fio", params: { target: root, jobFile } }, { allowedDirs: [root], freeBytes: async () => 2 * TiB });
  if (!r.ok) return r.reason;
  await removeRunDir(r.runDir);
  return null;
}

describe("refused job files", () => {
  const refused = files("refused");
  it("are at least 15, each with its expectation", () => {
    expect(refused.length).toBeGreaterThanOrEqual(15);
    for (const f of refused) expect(read("refused", f)).toMatch(/^; expect: \S/);
  });
  it.each(refused)("%s: refused with its option, line and reason, identically by server and agent", async (f) => {
    const text = read("refused", f);
    const expected = /^; expect: (.*)$/m.exec(text)![1]!.trim();
    const server = serverAnswer(text);
    expect(server).toContain(expected);
    expect(await agentAnswer(text)).toBe(server);
  });
  it("a file over 64 KiB, by both sides", async () => {
    const big = `[job]\nsize=1m\n${"; padding padding padding padding padding padding\n".repeat(1400)}`;
    expect(big.length).toBeGreaterThan(JOB_FILE_MAX_BYTES);
    const server = serverAnswer(big);
    expect(server).toContain("at most 64 KiB");
    expect(await agentAnswer(big)).toBe(server);
  });
  it("a file over the target's free space: admission's own refusal, from both sides", async () => {
    const text = "[big]\nrw=write\nsize=3g\n";
    const a = admitProbe({ probe: "fio", params: { target: root, jobFile: text } }, { allowedDirs: [root], toolInstalled: true, freeBytesIn: () => 1024 ** 3 });
    expect(!a.ok && a.refusal.kind).toBe("no-space");
    const r = await guardJob({ runId: randomUUID(), probe: "fio", params: { target: root, jobFile: text } }, { allowedDirs: [root], freeBytes: async () => 1024 ** 3 });
    expect(!r.ok && r.reason).toMatch(/^needs 3\.06 GiB free in .* has 1\.00 GiB$/);
  });
});

describe("accepted job files", () => {
  const accepted = files("accepted");
  it("are at least 5", () => expect(accepted.length).toBeGreaterThanOrEqual(5));
  it.each(accepted)("%s: accepted by server and agent; the command runs fio on the file in the run directory", async (f) => {
    const text = read("accepted", f);
    const verdict = validateJobFile(text);
    expect(verdict.ok ? [] : verdict.problems).toEqual([]);
    expect(serverAnswer(text)).toBeNull();
    expect(await agentAnswer(text)).toBeNull();
    const params = fioParamsSchema.parse({ target: root, jobFile: text });
    const cmd = buildFioCommand(params, "/t/run");
    expect(cmd.cwd).toBe("/t/run");
    expect(cmd.args.at(-1)).toBe("probebook-job.fio");
    expect(cmd.args.some((a) => a.startsWith("--filename") || a.startsWith("--directory"))).toBe(false);
    expect(cmd.layout).toEqual([{ file: "/t/run/probebook-job.fio", bytes: 0, content: text }]);
    expect(fioRequiredFreeBytes(params)).toBeGreaterThan(0);
  });
});

describe("the parser and the sums", () => {
  it("reads sections, key=value, bare keys, and cuts comments where fio does", () => {
    const p = parseJobFile("; head\n[global]\nsize=1m # one MiB\n\n[a]\ntime_based\n  runtime = 5  \n#x\n");
    expect(p.problems).toEqual([]);
    expect(p.sections).toEqual([
      { name: "global", line: 2, entries: [{ key: "size", value: "1m", line: 3 }] },
      { name: "a", line: 5, entries: [{ key: "time_based", value: null, line: 6 }, { key: "runtime", value: "5", line: 7 }] },
    ]);
  });
  it("never throws on foreign input", () => {
    for (const x of [undefined, 42, "", "\u0000", "[", "[x", "=", "= 1", "size=1m", "[a]\n[[b]]\n=x\n", "\uFFFF".repeat(10)]) {
      expect(() => validateJobFile(x)).not.toThrow();
      expect(validateJobFile(x).ok).toBe(false);
    }
  });
  it("adds a job's clones, the [global] above it and its own overrides", () => {
    const v = validateJobFile("[global]\nsize=1g\nnumjobs=2\n[a]\n[b]\nsize=2g\nnumjobs=3\nruntime=10\nramp_time=2\n[global]\nsize=4k\n[c]\n");
    expect(v.ok && v.summary.jobs.map((j) => [j.name, j.numjobs, j.bytesPerJob, j.seconds])).toEqual([
      ["a", 2, 1024 ** 3, null],
      ["b", 3, 2 * 1024 ** 3, 12],
      ["c", 2, 4096, null],
    ]);
    expect(v.ok && v.summary.writesBytes).toBe(2 * 1024 ** 3 + 6 * 1024 ** 3 + 2 * 4096);
    // offsets count on top: 4 clones at 1m + 0, 1, 2, 3 × 256m of offset_increment
    const o = validateJobFile("[a]\nsize=1m\noffset=1m\noffset_increment=256m\nnumjobs=4\n");
    expect(o.ok && o.summary.writesBytes).toBe(4 * (2 * 1024 ** 2 + 3 * 256 * 1024 ** 2));
  });
  it("gives a job without a runtime time for its passes at 5 MiB/s, and a timed one its runtime", () => {
    const timeout = (text: string) => {
      const v = validateJobFile(text);
      return v.ok ? v.summary.timeoutSec : null;
    };
    // 120 s of slack + layout (5 MiB) + 3 loops of 5 MiB, at 5 MiB/s
    expect(timeout("[a]\nsize=5m\nloops=3\n")).toBe(120 + 1 + 3);
    expect(timeout("[a]\nsize=5m\nio_size=50m\n")).toBe(120 + 1 + 10);
    expect(timeout("[a]\nsize=1g\nruntime=30\nramp_time=5\n[b]\nsize=1g\nruntime=1m\n")).toBe(120 + 35 + 60);
  });
  it("reads fio's units with the larger reading of a prefix", () => {
    expect([sizeBytes("4k"), sizeBytes("4KiB"), sizeBytes("1m"), sizeBytes("0x10"), sizeBytes("1.5g"), sizeBytes("x")]).toEqual([4096, 4096, 1048576, 16, 1.5 * 1024 ** 3, null]);
    expect([timeSeconds("30"), timeSeconds("10m"), timeSeconds("500ms"), timeSeconds("2h"), timeSeconds("5 s")]).toEqual([30, 600, 0.5, 7200, 5]);
    expect(timeSeconds("200", "us")).toBeCloseTo(0.0002, 12);
  });
});
