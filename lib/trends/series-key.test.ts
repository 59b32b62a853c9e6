import { describe, expect, it } from "vitest";
import { seriesKey, seriesTarget } from "./series-key";

describe("seriesKey", () => {
  const base = { hostId: "h1", probe: "dd", params: { target: "/srv", sizeMiB: 64, mode: "write" } };
  it("is the same whatever the order of the parameters", () => {
    expect(seriesKey(base)).toBe(seriesKey({ ...base, params: { mode: "write", sizeMiB: 64, target: "/srv" } }));
  });
  it("differs by host, probe, a parameter or the target", () => {
    const k = seriesKey(base);
    expect(seriesKey({ ...base, hostId: "h2" })).not.toBe(k);
    expect(seriesKey({ ...base, probe: "fio" })).not.toBe(k);
    expect(seriesKey({ ...base, params: { ...base.params, sizeMiB: 128 } })).not.toBe(k);
    expect(seriesKey({ ...base, params: { ...base.params, target: "/data" } })).not.toBe(k);
  });
  it("reads the target", () => {
    expect(seriesTarget(base.params)).toBe("/srv");
    expect(seriesTarget({})).toBeNull();
  });
});
