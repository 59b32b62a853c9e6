import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { createExperimentSchema } from "./experiments";

const hostId = crypto.randomUUID();
const params = { target: "/srv/pb", rw: "randread", ioengine: "libaio", runtimeSec: 5, sizeMiB: 64 };
const body = (over: Record<string, unknown> = {}, sweep: Record<string, unknown> = {}) => ({ hostId, kind: "sweep", probe: "fio", params, sweep: { iodepths: [1, 4, 16], numjobs: [1, 2, 4], ...sweep }, ...over });

/** Field → messages, as the API answers them (fieldErrors). */
function refused(b: unknown): Record<string, string[]> {
  const r = createExperimentSchema.safeParse(b);
  if (r.success) return {};
  const out: Record<string, string[]> = {};
  for (const i of r.error.issues) (out[i.path.join(".")] ??= []).push(i.message);
  return out;
}

describe("a sweep's body", () => {
  it("accepts a 3 × 3 grid with steady state, and an A/B body still needs two arms", () => {
    const ok = createExperimentSchema.parse(body({}, { steadyState: { metric: "iops", limitPercent: 5, windowSec: 2, rampSec: 1 }, repeats: 1 }));
    expect(ok).toMatchObject({ kind: "sweep", arms: [], sweep: { iodepths: [1, 4, 16], numjobs: [1, 2, 4] } });
    expect(refused({ hostId, probe: "dd", params: { target: "/srv" }, arms: [] })).toEqual({ arms: ["An experiment compares at least two arms."] });
  });

  it("refuses grids that are not ascending and unique, out of range, or too large, at their field", () => {
    expect(refused(body({}, { iodepths: [4, 1] }))["sweep.iodepths"]?.[0]).toMatch(/ascending without repeats \(4 then 1\)/);
    expect(refused(body({}, { numjobs: [2, 2] }))["sweep.numjobs"]?.[0]).toMatch(/ascending without repeats/);
    expect(refused(body({}, { iodepths: [0, 4] }))["sweep.iodepths.0"]?.[0]).toMatch(/at least 1/);
    expect(refused(body({}, { numjobs: [1, 65] }))["sweep.numjobs.1"]?.[0]).toMatch(/at most 64/);
    expect(refused(body({}, { blockSizesKiB: [4, 6] }))["sweep.blockSizesKiB.1"]?.[0]).toMatch(/power of two/);
    expect(refused(body({}, { iodepths: [1, 2, 4, 8, 16, 32, 64, 128, 256], numjobs: [1, 2, 4, 8, 16, 32, 64], blockSizesKiB: [4, 8] }))["sweep.iodepths"]?.[0]).toMatch(/126 points; at most 64/);
    expect(refused(body({}, { repeats: 3 }))["sweep.repeats"]?.[0]).toMatch(/repeats must be 1/);
    expect(refused(body({}, { extra: 1 }))["sweep"]?.[0]).toMatch(/extra/);
  });

  it("ties the grid to the workload: async engine for iodepth > 1, a runtime, fio, no arms", () => {
    expect(refused(body({ params: { ...params, ioengine: "psync" } }))).toEqual({ "sweep.iodepths": [expect.stringMatching(/psync is synchronous: an iodepth above 1 needs params.ioengine libaio or io_uring/)] });
    expect(refused(body({ params: { ...params, ioengine: undefined } }))["sweep.iodepths"]).toHaveLength(1);
    expect(refused(body({ params: { ...params, ioengine: "psync" } }, { iodepths: [1] }))).toEqual({});
    const { runtimeSec: _r, ...noRuntime } = params;
    expect(refused(body({ params: noRuntime }))).toEqual({ "params.runtimeSec": [expect.stringMatching(/each point's time limit/)] });
    expect(refused(body({ probe: "dd" }))["probe"]?.[0]).toMatch(/A sweep runs fio/);
    expect(refused(body({ arms: [{ target: "/a" }, { target: "/b" }] }))["arms"]?.[0]).toMatch(/A sweep has no arms/);
    expect(refused(body({ params: { ...params, iodepth: 8 } }))["params.iodepth"]?.[0]).toMatch(/sets iodepth per point/);
    expect(refused(body({ kind: undefined }))["sweep"]?.[0]).toMatch(/belongs to kind "sweep"/);
    expect(refused(body({}, { steadyState: { metric: "iops", limitPercent: 5, windowSec: 1 } }))["sweep.steadyState.windowSec"]?.[0]).toMatch(/at least 2 s/);
  });
});
