import { describe, expect, it } from "vitest";
import { probeIds, resolvePreset, validateParams } from "./catalog";
import { closestName, paramNames, unknownParamErrors } from "./param-names";

describe("parameter names", () => {
  it("lists every probe's schema keys", () => {
    for (const id of probeIds) expect(paramNames(id)).toContain("target");
    expect(paramNames("dd")).toContain("sizeMiB");
    expect(paramNames("nope")).toEqual([]);
  });

  it("names a mistyped parameter, its close match and the valid names (the schema alone would drop it)", () => {
    // The parse strips it silently: this is why the check exists.
    const preset = resolvePreset("dd:write-direct")!.params;
    const parsed = validateParams("dd", { ...preset, target: "/tmp", sizemib: 8 });
    expect(parsed).toMatchObject({ ok: true, params: { sizeMiB: (preset as { sizeMiB: number }).sizeMiB } });
    expect(parsed.ok && "sizemib" in parsed.params).toBe(false);
    const errors = unknownParamErrors("dd", { target: "/tmp", sizemib: 8, sizeMiB: 4 });
    expect(Object.keys(errors)).toEqual(["sizemib"]);
    expect(errors.sizemib).toMatch(/^unknown parameter sizemib \(did you mean sizeMiB\?\); valid: target, sizeMiB, /);
    expect(unknownParamErrors("fio", { iodeph: 4 }).iodeph).toContain("did you mean iodepth?");
    expect(unknownParamErrors("fio", { colour: "red" }).colour).not.toContain("did you mean");
  });

  it("suggests only close names", () => {
    expect(closestName("BLOCKSIZEKIB", ["blockSizeKiB"])).toBe("blockSizeKiB");
    expect(closestName("numjob", ["numjobs", "iodepth"])).toBe("numjobs");
    expect(closestName("wholly-different", ["numjobs"])).toBeUndefined();
  });
});
