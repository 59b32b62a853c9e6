import { describe, expect, it } from "vitest";
import { iozoneParamsSchema, iozonePresets } from "./params";

const issues = (input: unknown) => {
  const r = iozoneParamsSchema.safeParse(input);
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
};

describe("iozone params", () => {
  it("needs only a target", () => {
    expect(iozoneParamsSchema.parse({ target: "/srv/t" })).toEqual({
      target: "/srv/t", mode: "auto", fileSizeMiB: 64, minRecordKiB: 4, maxRecordKiB: 256, recordKiB: 64,
      tests: [0, 1, 2], direct: false, processes: 2,
    });
  });

  it.each([
    ["relative", "srv/t", /absolute/],
    ["dot-dot", "/srv/../etc", /'\.\.'/],
    ["NUL", "/srv/t\0x", /NUL/],
    ["newline", "/srv/t\nx", /control/],
    ["too long", `/${"a".repeat(4096)}`, /4096/],
    ["empty", "", /required/],
  ])("rejects a %s target", (_name, target, message) => {
    expect(issues({ target }).join("\n")).toMatch(message);
  });

  it("bounds sizes and record sizes", () => {
    expect(issues({ target: "/t", fileSizeMiB: 0 })).not.toEqual([]);
    expect(issues({ target: "/t", fileSizeMiB: 1024 * 1024 + 1 })).not.toEqual([]);
    expect(issues({ target: "/t", fileSizeMiB: 1024 * 1024 })).toEqual([]);
    expect(issues({ target: "/t", minRecordKiB: 6 }).join()).toMatch(/power of two/);
    expect(issues({ target: "/t", maxRecordKiB: 32768 }).join()).toMatch(/16 MiB/);
    expect(issues({ target: "/t", minRecordKiB: 2 }).join()).toMatch(/at least 4 KiB/);
    expect(issues({ target: "/t", minRecordKiB: 512, maxRecordKiB: 256 }).join()).toMatch(/must not exceed the maximum/);
    expect(issues({ target: "/t", fileSizeMiB: 1, minRecordKiB: 2048, maxRecordKiB: 4096 }).join()).toMatch(/file size/);
    expect(issues({ target: "/t", processes: 65 })).not.toEqual([]);
  });

  it("accepts test lists only from iozone's -i numbers", () => {
    expect(issues({ target: "/t", tests: [0, 13] })).not.toEqual([]);
    expect(issues({ target: "/t", tests: ["0"] })).not.toEqual([]);
    expect(issues({ target: "/t", tests: [] }).join()).toMatch(/at least one/);
    expect(issues({ target: "/t", tests: [0, 0] }).join()).toMatch(/repeat/);
    expect(issues({ target: "/t", tests: [1] }).join()).toMatch(/include 0/);
    expect(issues({ target: "/t", tests: [0, 9] }).join()).toMatch(/no column/);
    expect(issues({ target: "/t", mode: "throughput", tests: [0, 4] }).join()).toMatch(/report nothing/);
    expect(issues({ target: "/t", mode: "throughput", tests: [0, 9] })).toEqual([]);
    expect(issues({ target: "/t", tests: "all" })).toEqual([]);
    expect(issues({ target: "/t", tests: "everything" })).not.toEqual([]);
  });

  it("has valid presets with the ids other code references", () => {
    expect(Object.keys(iozonePresets).sort()).toEqual(
      ["auto-1g", "auto-1g-direct", "auto-64m", "auto-64m-direct", "ext-article", "throughput-2"].sort(),
    );
    for (const preset of Object.values(iozonePresets)) {
      expect(issues({ ...preset.params, target: "/srv/t" })).toEqual([]);
    }
    expect(iozonePresets["ext-article"]?.params).toMatchObject({ fileSizeMiB: 4096, minRecordKiB: 4, maxRecordKiB: 256, tests: "all", direct: false });
  });
});
