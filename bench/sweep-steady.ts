// A 3 × 3 sweep (iodepth 1, 4, 16 × numjobs 1, 2, 4; 4 KiB random reads, libaio, direct) on this
// machine, each point run twice: time-based for its whole runtime, and with fio's steady state
// ending it early. Prints and writes (bench/results/sweep-steady.json) each mode's wall time, the
// points that reached steady state and after how long, and each point's IOPS in both modes.
//
// It runs fio as the agent would (the probe's own argv, probes/fio/command.ts, and its parser),
// without the server: what is measured is fio's time, not the queue's. The points run in the
// sweep's interleaved order, and at each point the two modes alternate which goes first, so
// drift over the bench does not land on one mode.
//
//   npm run bench:sweep [-- --dir DIR] [--runtime 10] [--size-mib 64]
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { buildFioCommand } from "../probes/fio/command";
import { fioParamsSchema } from "../probes/fio/params";
import { parseFio } from "../probes/fio/parse";
import { readSteadyState } from "../probes/fio/steady-state";
import { gridPoints, interleavedOrder, pointLabel } from "../lib/sweeps/grid";
import { pointFigures } from "../lib/sweeps/point-figures";

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
};
const root = path.resolve(__dirname, "..");
const dir = path.resolve(arg("dir", path.join(root, ".data", "bench-sweep")));
const runtimeSec = Number(arg("runtime", "10"));
const sizeMiB = Number(arg("size-mib", "64"));
const steadyState = { metric: "iops" as const, limitPercent: 20, windowSec: 2, rampSec: 4 };
const grid = { iodepths: [1, 4, 16], numjobs: [1, 2, 4], blockSizesKiB: [4] };

interface Outcome {
  wallSec: number;
  iops: number | null;
  p99Ns: number | null;
  runtimeSec: number | null;
  steady: { reached: boolean; afterSec: number | null } | null;
  error?: string;
}

function runPoint(p: { iodepth: number; numjobs: number }, steady: boolean): Outcome {
  const runDir = fs.mkdtempSync(path.join(dir, "run-"));
  try {
    const params = fioParamsSchema.parse({ target: dir, rw: "randread", blockSizeKiB: 4, sizeMiB, ioengine: "libaio", direct: true, runtimeSec, iodepth: p.iodepth, numjobs: p.numjobs, ...(steady ? { steadyState } : {}) });
    const spec = buildFioCommand(params, runDir);
    const t0 = performance.now();
    const r = spawnSync(spec.file, spec.args, { cwd: spec.cwd, env: { ...process.env, ...spec.env }, encoding: "utf8", maxBuffer: 64 * 2 ** 20 });
    const wallSec = (performance.now() - t0) / 1000;
    const parsed = parseFio(r.stdout ?? "");
    if (!parsed.ok) return { wallSec, iops: null, p99Ns: null, runtimeSec: null, steady: null, error: `${parsed.error} ${(r.stderr ?? "").slice(0, 300)}` };
    const f = pointFigures(parsed.result.measurements);
    return { wallSec, iops: f.iops, p99Ns: f.latP99Ns, runtimeSec: f.runtimeSec, steady: readSteadyState(parsed.result.measurements) };
  } finally {
    fs.rmSync(runDir, { recursive: true, force: true });
  }
}

function main() {
  fs.mkdirSync(dir, { recursive: true });
  const points = gridPoints(grid);
  const order = interleavedOrder(points);
  const load = os.loadavg().map((l) => l.toFixed(2)).join(" ");
  console.log(`sweep-steady: ${points.length} points × 2 modes in ${dir}, runtime ${runtimeSec} s, ${sizeMiB} MiB file, steady ${steadyState.metric}:${steadyState.limitPercent}% window ${steadyState.windowSec} s ramp ${steadyState.rampSec} s; load average before: ${load}`);
  const rows: { point: string; fixed: Outcome; steady: Outcome }[] = [];
  order.forEach((i, k) => {
    const p = points[i]!;
    // Alternate which mode goes first, point by point (A B, B A, …).
    const first = k % 2 === 0 ? "fixed" : "steady";
    const a = runPoint(p, first === "steady");
    const b = runPoint(p, first !== "steady");
    const fixed = first === "fixed" ? a : b;
    const steady = first === "fixed" ? b : a;
    rows.push({ point: pointLabel(p), fixed, steady });
    const diff = fixed.iops && steady.iops ? `${(((steady.iops - fixed.iops) / fixed.iops) * 100).toFixed(1)} %` : "—";
    console.log(`${pointLabel(p).padEnd(16)} fixed ${fixed.wallSec.toFixed(1)} s ${Math.round(fixed.iops ?? 0)} IOPS | steady ${steady.wallSec.toFixed(1)} s ${Math.round(steady.iops ?? 0)} IOPS ${steady.steady?.reached ? `steady after ${steady.steady.afterSec} s` : "not steady"} | IOPS diff ${diff}${fixed.error ?? steady.error ? ` | ${fixed.error ?? steady.error}` : ""}`);
  });
  const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0);
  const fixedWall = sum(rows.map((r) => r.fixed.wallSec));
  const steadyWall = sum(rows.map((r) => r.steady.wallSec));
  const reached = rows.filter((r) => r.steady.steady?.reached);
  const summary = {
    fixedWallSec: Number(fixedWall.toFixed(1)),
    steadyWallSec: Number(steadyWall.toFixed(1)),
    savedPct: Number((((fixedWall - steadyWall) / fixedWall) * 100).toFixed(1)),
    steadyPoints: reached.length,
    loadAverageBefore: load,
    loadAverageAfter: os.loadavg().map((l) => l.toFixed(2)).join(" "),
  };
  console.log(`fixed-length sweep ${summary.fixedWallSec} s, steady-state sweep ${summary.steadyWallSec} s (${summary.savedPct} % less); ${reached.length} of ${rows.length} points steady; load average after: ${summary.loadAverageAfter}`);
  fs.mkdirSync(path.join(root, "bench", "results"), { recursive: true });
  fs.writeFileSync(path.join(root, "bench", "results", "sweep-steady.json"), JSON.stringify({ summary, steadyState, runtimeSec, sizeMiB, rows }, null, 2));
  fs.rmSync(dir, { recursive: true, force: true });
}

main();
