// A real SNIA-style run's stored output (fio 3.33, 16 MiB file, 1 s rounds on this project's
// build machine, 25 rounds without a steady window) read back: rounds, verdict, flag and charts.
import { describe, expect, it } from "vitest";
import { checkRun } from "../../checks";
import { fixture } from "../../core/testing";
import { frameStep, splitSteps } from "../../core/steps";
import { fioProbe } from "../probe";
import { parseFio } from "../parse";
import { fioParamsSchema } from "../params";
import { buildSniaCommand, preconditionArgs } from "./command";

const log = fixture("fio", "snia-3.33-randwrite-16m-1s.log");
const params = fioParamsSchema.parse({ target: "/srv/t", rw: "randwrite", blockSizeKiB: 4, sizeMiB: 16, ioengine: "libaio", iodepth: 8, sniaRoundSec: 1 });
const ok = (out: string) => {
  const r = parseFio(out);
  if (!r.ok) throw new Error(r.error);
  return r.result;
};
const value = (r: ReturnType<typeof ok>, metric: string) => r.measurements.find((m) => m.metric === metric)?.value;

describe("SNIA-style fio run", () => {
  it("precondition writes the file twice sequentially; rounds are time based with O_DIRECT and libaio", () => {
    const cmd = buildSniaCommand(params, "/srv/t/run", 1);
    expect(cmd.args).toEqual(preconditionArgs(params, "/srv/t/run"));
    expect(cmd.args).toEqual(expect.arrayContaining(["--name=precondition", "--rw=write", "--loops=2", "--size=16m", "--direct=1"]));
    const round = cmd.next!("", 1)!;
    expect(round.args).toEqual(expect.arrayContaining(["--rw=randwrite", "--bs=4k", "--direct=1", "--ioengine=libaio", "--iodepth=8", "--runtime=1", "--time_based"]));
    expect(round.files).toBeUndefined();
    // A round whose report does not parse ends the run.
    expect(round.next!("fio: something went wrong", 2)).toBeNull();
    expect(fioParamsSchema.safeParse({ ...params, runtimeSec: 30 }).success).toBe(false);
  });

  it("keeps every round, the verdict and the window's figures of a run that never got steady", () => {
    const r = ok(log);
    const rounds = r.measurements.filter((m) => m.metric === "round_iops");
    expect(rounds.map((m) => m.dims.round)).toEqual(Array.from({ length: 25 }, (_, i) => String(i + 1)));
    expect(value(r, "ss_reached")).toBe(0);
    expect(value(r, "ss_rounds")).toBe(25);
    expect(value(r, "ss_range")).toBeGreaterThan(20);
    expect(r.warnings).toContain("steady state not reached in 25 rounds");
    expect(r.toolVersion).toBe("3.33");
    const pre = r.measurements.filter((m) => m.metric === "io_bytes" && m.dims.step === "precondition" && m.dims.direction === "write");
    expect(pre.map((m) => m.value)).toEqual([32 * 1024 * 1024]);
    // The last round stands for the run: its percentiles and IOPS, named after the round job.
    expect(r.measurements.find((m) => m.metric === "clat_p99" && m.dims.direction === "write")?.dims.job).toBe("snia-randwrite");
    expect(r.measurements.find((m) => m.metric === "iops" && m.dims.direction === "write")?.value).toBeCloseTo(rounds.at(-1)!.value, 6);
  });

  it("flags a run that never reached steady state as such, not as failed", () => {
    const r = ok(log);
    const flags = fioProbe.checks!.flags!(params, r);
    expect(flags).toHaveLength(1);
    expect(flags[0]).toMatchObject({ code: "steady-state-not-reached", title: "Steady state not reached" });
    expect(flags[0]!.evidence).toMatch(/did not hold in 25 rounds\. Over the last 5 rounds the IOPS ranged \d+\.\d % of their mean \(limit 20 %\)/);
    const checked = checkRun({ probe: "fio", params, result: r, samples: [], durationMs: 60_000, facts: { fsType: "ext4", memTotalBytes: null, cpuCount: null } });
    expect(checked.flags.map((f) => f.code)).toContain("steady-state-not-reached");
    // Its measured time is the precondition and the 25 rounds added up.
    const claim = fioProbe.checks!.claim(params, r)!;
    expect(claim.measuredSeconds).toBeGreaterThan(25);
    expect(claim.extraWriteBytes).toBe(0);
  });

  it("reaches steady state on real rounds that hold (five of the fixture's rounds in a row) and says after how many", () => {
    const steps = splitSteps(log);
    // Rounds 6, 7, 8, 22 and 23 of the real run: 26.3k, 24.1k, 25.5k, 23.2k and 25.6k IOPS.
    const picked = [0, 6, 7, 8, 22, 23].map((i) => steps[i]!.output);
    const r = ok(picked.map((o, i) => frameStep(i + 1) + o).join(""));
    expect(value(r, "ss_reached")).toBe(1);
    expect(value(r, "ss_rounds")).toBe(5);
    expect(value(r, "ss_range")).toBeLessThanOrEqual(20);
    expect(value(r, "ss_excursion")).toBeLessThanOrEqual(10);
    expect(fioProbe.checks!.flags!(params, r)).toEqual([]);
    const chart = fioProbe.view.runCharts(r)[0]!;
    expect(chart.title).toMatch(/^fio SNIA rounds: steady state reached after 5 rounds \(last window: range \d+\.\d %/);
    expect(chart.series.map((s) => s.name)).toEqual(["IOPS of the round", "window mean", "mean + 10 %", "mean − 10 %"]);
  });

  it("keeps the rounds that ran when the run was cancelled during a round", () => {
    const cut = log.indexOf("[probebook step 9]");
    const r = ok(log.slice(0, cut + 400));
    expect(r.measurements.filter((m) => m.metric === "round_iops")).toHaveLength(7);
    expect(value(r, "ss_reached")).toBe(0);
    expect(r.warnings.join(" ")).toMatch(/round 8 has no fio report .*the verdict uses the 7 rounds before it/);
    expect(r.warnings).toContain("steady state not reached: the run ended after 7 of at most 25 rounds");
  });

  it("draws the rounds first and names fio's version on every chart", () => {
    const charts = fioProbe.view.runCharts(ok(log));
    expect(charts[0]!.title).toBe("fio SNIA rounds: " + charts[0]!.title.replace(/^fio SNIA rounds: /, ""));
    expect(charts[0]!.series[0]!.points).toHaveLength(25);
    expect(charts.every((c) => c.source === "fio-3.33")).toBe(true);
  });

  it("shows the current step's progress, not the finished report of an earlier one", () => {
    // The fixture was recorded without a terminal (no ETA lines): round 8 goes on with the
    // status lines of a live fio run recorded on a pty.
    const live = fixture("fio", "live/live-3.33-randrw-psync.log");
    const running = live.slice(0, live.indexOf("[eta 0") + 20);
    const marker = "[probebook step 9]";
    const p = fioProbe.extractProgress(log.slice(0, log.indexOf(marker) + marker.length) + "\r\n" + running, params);
    expect(p?.label).toMatch(/^round 8 of at most 25: /);
    expect(p?.label).not.toContain("finished");
    expect(fioProbe.extractProgress(log.slice(0, log.indexOf("[probebook step 2]")), params)?.label).toMatch(/^precondition: finished/);
  });

  it("says not SNIA output for a step frame without a precondition report", () => {
    expect(parseFio(`${frameStep(1)}hello\r\n`)).toMatchObject({ ok: false, error: expect.stringMatching(/^the precondition failed: not fio JSON output/) });
  });
});

describe("mixed workloads", () => {
  it("add read and write into a total, in the IOPS and bandwidth charts and the headline", () => {
    const r = ok(fixture("fio", "fio-3.33-randrw-libaio.json"));
    const read = r.measurements.find((m) => m.metric === "iops" && m.dims.direction === "read")!.value;
    const write = r.measurements.find((m) => m.metric === "iops" && m.dims.direction === "write")!.value;
    const iopsChart = fioProbe.view.runCharts(r).find((c) => c.title === "fio IOPS")!;
    expect(iopsChart.series[0]!.points.map((p) => p.x)).toEqual(["randrw read", "randrw write", "randrw total"]);
    expect(iopsChart.series[0]!.points[2]!.y).toBeCloseTo(read + write, 6);
    expect(fioProbe.view.runCharts(r).find((c) => c.title === "fio bandwidth")!.series[0]!.points.map((p) => p.x)).toContain("randrw total");
    const headline = fioProbe.headline(r, params);
    expect(headline.find((h) => h.noun === "total IOPS of randrw")).toMatchObject({ dims: { job: "randrw", direction: "total" } });
    expect(headline.find((h) => h.noun === "total IOPS of randrw")!.value).toBeCloseTo(read + write, 3);
    expect(headline.find((h) => h.noun === "total bandwidth of randrw")).toBeDefined();
  });
});
