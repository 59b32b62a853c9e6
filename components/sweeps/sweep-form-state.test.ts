import { describe, expect, it } from "vitest";
import { defaultSweepValues, durationText, errorsFor, pointCount, sweepRequest, unplacedErrors, worstCaseSec } from "./sweep-form-state";

describe("new-sweep form state", () => {
  it("counts the grid's points and the longest the sweep can take", () => {
    const v = { ...defaultSweepValues("h", "/t"), iodepths: [1, 4, 16], numjobs: [1, 2, 4], pointRuntimeSec: 30 };
    expect(pointCount(v)).toBe(9);
    expect(worstCaseSec(v)).toBe(270);
    expect(pointCount({ ...v, blockSizesKiB: [4, 64] })).toBe(18);
    expect(worstCaseSec({ ...v, pointRuntimeSec: Number.NaN })).toBe(0);
    expect(pointCount({ ...v, iodepths: [] })).toBe(0);
  });

  it("says durations the short way", () => {
    expect(durationText(45)).toBe("45 s");
    expect(durationText(270)).toBe("4 min 30 s");
    expect(durationText(2940)).toBe("49 min");
    expect(durationText(4320)).toBe("1 h 12 min");
  });

  it("sends the workload as fio params with the point limit as runtimeSec, and the grid sorted", () => {
    const v = { ...defaultSweepValues("host-1", "/srv"), iodepths: [16, 1, 4], numjobs: [4, 1], title: "  nvme  " };
    expect(sweepRequest(v)).toEqual({
      kind: "sweep",
      hostId: "host-1",
      title: "nvme",
      probe: "fio",
      params: { target: "/srv", rw: "randread", ioengine: "libaio", direct: true, sizeMiB: 1024, runtimeSec: 30, blockSizeKiB: 4 },
      sweep: { iodepths: [1, 4, 16], numjobs: [1, 4], steadyState: { metric: "iops", limitPercent: 5, windowSec: 10, rampSec: 5 } },
    });
  });

  it("sends rwmixread only for randrw, block sizes only when swept, steady state null when off", () => {
    const r = sweepRequest({ ...defaultSweepValues("h", "/t"), rw: "randrw", rwmixread: 70, blockSizesKiB: [64, 4], steady: false }) as { params: Record<string, unknown>; sweep: Record<string, unknown> };
    expect(r.params.rwmixread).toBe(70);
    expect(r.sweep.blockSizesKiB).toEqual([4, 64]);
    expect("blockSizeKiB" in r.params).toBe(false);
    expect(r.sweep.steadyState).toBeNull();
    expect("title" in r).toBe(false);
  });

  it("puts each API error beside its field and lists the rest", () => {
    const errs = { "params.target": ["outside the allowed directories"], "sweep.iodepths.2": ["must be at most 1024"], "sweep.steadyState.windowSec": ["shorter than the point"], wat: ["?"] };
    expect(errorsFor(errs, "target")).toEqual(["outside the allowed directories"]);
    expect(errorsFor(errs, "iodepths")).toEqual(["must be at most 1024"]);
    expect(errorsFor(errs, "steady")).toEqual(["shorter than the point"]);
    expect(errorsFor(errs, "numjobs")).toEqual([]);
    expect(unplacedErrors(errs)).toEqual([["wat", ["?"]]]);
  });
});
