import { describe, expect, it } from "vitest";
import { expectOk, fixture } from "../core/testing";
import { buildFioCommand } from "./command";
import { fioParamsSchema } from "./params";
import { parseFio } from "./parse";
import { parseSteadyFlag, readSteadyState, steadyStateText } from "./steady-state";

const base = { target: "/srv/t", rw: "randread", ioengine: "libaio", iodepth: 4, sizeMiB: 32 };
const ss = { metric: "iops", limitPercent: 5, windowSec: 2, rampSec: 1 };

const refusal = (params: unknown) => {
  const r = fioParamsSchema.safeParse(params);
  return r.success ? null : r.error.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
};

describe("fio steady state: params", () => {
  it("needs a runtime, long enough for the ramp and window; refusals name the field", () => {
    expect(refusal({ ...base, steadyState: ss })).toEqual([{ path: "runtimeSec", message: expect.stringMatching(/steadyState needs runtimeSec/) }]);
    expect(refusal({ ...base, runtimeSec: 2, steadyState: ss })).toEqual([{ path: "steadyState.windowSec", message: expect.stringMatching(/must fit within runtimeSec \(2 s\)/) }]);
    expect(refusal({ ...base, runtimeSec: 10, steadyState: { ...ss, metric: "latency" } })?.[0]?.path).toBe("steadyState.metric");
    expect(refusal({ ...base, runtimeSec: 10, steadyState: { ...ss, windowSec: 1 } })?.[0]).toEqual({ path: "steadyState.windowSec", message: expect.stringMatching(/at least 2 s/) });
    expect(refusal({ ...base, runtimeSec: 10, steadyState: { ...ss, limitPercent: 0 } })?.[0]?.path).toBe("steadyState.limitPercent");
    expect(refusal({ ...base, runtimeSec: 10, steadyState: ss })).toBeNull();
  });

  it("becomes fio's three options as argv entries, and none without a criterion", () => {
    const with_ = buildFioCommand(fioParamsSchema.parse({ ...base, runtimeSec: 10, steadyState: { ...ss, metric: "bw_slope", limitPercent: 2.5 } }), "/srv/t/run");
    expect(with_.args).toEqual(expect.arrayContaining(["--runtime=10", "--time_based", "--steadystate=bw_slope:2.5%", "--steadystate_duration=2", "--steadystate_ramp_time=1"]));
    const without = buildFioCommand(fioParamsSchema.parse({ ...base, runtimeSec: 10 }), "/srv/t/run");
    expect(without.args.some((a) => a.startsWith("--steadystate"))).toBe(false);
  });

  it("reads the CLI's iops:5%,window=5,ramp=2 form and names what is wrong", () => {
    expect(parseSteadyFlag("iops:5%,window=5,ramp=2")).toEqual({ ok: true, spec: { metric: "iops", limitPercent: 5, windowSec: 5, rampSec: 2 } });
    expect(parseSteadyFlag("bw_slope:1")).toEqual({ ok: true, spec: { metric: "bw_slope", limitPercent: 1, windowSec: 5, rampSec: 0 } });
    expect(parseSteadyFlag("lat:5%")).toMatchObject({ ok: false, error: expect.stringMatching(/METRIC:LIMIT%/) });
    expect(parseSteadyFlag("iops:5%,duration=3")).toMatchObject({ ok: false, error: expect.stringMatching(/"duration=3" is not window=SECONDS/) });
    expect(parseSteadyFlag("iops:5%,window=1")).toMatchObject({ ok: false, error: expect.stringMatching(/at least 2 s/) });
  });
});

describe("fio steady state: fio 3.33's JSON", () => {
  it("a job fio ended as steady: attained, and after how long", () => {
    const r = expectOk(parseFio(fixture("fio", "fio-3.33-steadystate.json")));
    expect(r.measurements.filter((m) => m.metric.startsWith("ss_")).map((m) => [m.metric, m.value])).toEqual([["ss_attained", 1], ["ss_after", 3632]]);
    const s = readSteadyState(r.measurements);
    expect(s).toEqual({ reached: true, afterSec: 3.632 });
    expect(steadyStateText(s!)).toBe("steady after 3.6 s");
  });

  it("a job that ran its whole runtime without becoming steady; a job without the criterion says nothing", () => {
    const json = JSON.parse(fixture("fio", "fio-3.33-steadystate.json")) as { jobs: { steadystate: { attained: number } }[] };
    json.jobs[0]!.steadystate.attained = 0;
    const r = expectOk(parseFio(JSON.stringify(json)));
    expect(readSteadyState(r.measurements)).toEqual({ reached: false, afterSec: null });
    expect(steadyStateText({ reached: false, afterSec: null })).toBe("not steady within the runtime");
    expect(readSteadyState(expectOk(parseFio(fixture("fio", "fio-3.33-numjobs2-group.json"))).measurements)).toBeNull();
  });
});

describe("fio steady state on the run's curves", () => {
  it("the per-second charts say steady after N s, or not steady; without the criterion they say nothing", async () => {
    const { seriesCharts } = await import("./view-series");
    const series = [1, 2, 3].map((t) => ({ metric: "iops_series", value: 1000 * t, unit: "1/s", dims: { job: "j", direction: "read", t } }));
    const withSteady = (attained: number) => ({ tool: "fio" as const, toolVersion: "3.33", warnings: [], measurements: [...series, { metric: "ss_attained", value: attained, unit: "", dims: { job: "j" } }, ...(attained ? [{ metric: "ss_after", value: 6490, unit: "ms", dims: { job: "j" } }] : [])] });
    expect(seriesCharts(withSteady(1)).map((c) => c.title)).toContain("fio IOPS over time (steady after 6.5 s)");
    expect(seriesCharts(withSteady(0)).map((c) => c.title)).toContain("fio IOPS over time (not steady within the runtime)");
    expect(seriesCharts({ tool: "fio", toolVersion: "3.33", warnings: [], measurements: series }).map((c) => c.title)).toContain("fio IOPS over time");
  });
});
