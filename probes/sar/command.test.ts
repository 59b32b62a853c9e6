import { describe, expect, it } from "vitest";
import { fixture } from "../core/testing";
import { buildSarCommand } from "./command";
import { sarParamsSchema, sarPresets } from "./params";
import { extractSarProgress } from "./progress";

const preset = (name: string, extra: object = {}) =>
  sarParamsSchema.parse({ ...sarPresets[name]?.params, target: "/srv/t", ...extra });

describe("sar params and command", () => {
  it("has the presets other code references", () => {
    expect(Object.keys(sarPresets).sort()).toEqual(["all", "cpu", "disk", "memory", "paging"]);
  });

  it.each([
    ["paging", ["-B", "1", "10"]],
    ["disk", ["-d", "-p", "1", "10"]],
    ["memory", ["-r", "1", "10"]],
    ["cpu", ["-u", "1", "10"]],
    ["all", ["-B", "-d", "-p", "-r", "-u", "1", "10"]],
  ])("%s", (name, args) => {
    const cmd = buildSarCommand(preset(name), preset(name).target);
    expect(cmd).toMatchObject({ file: "sar", args, cwd: "/srv/t", env: { LC_ALL: "C", S_TIME_FORMAT: "ISO", S_COLORS: "never" }, timeoutSec: 40 });
    expect(cmd.files).toBeUndefined();
  });

  it("orders sections canonically and bounds interval and count", () => {
    expect(buildSarCommand(preset("all", { sections: ["u", "B"], interval: 5, count: 3 }), preset("all", { sections: ["u", "B"], interval: 5, count: 3 }).target).args).toEqual(["-B", "-u", "5", "3"]);
    const bad = (extra: object) => sarParamsSchema.safeParse({ target: "/t", ...extra }).success;
    expect(bad({ interval: 0 })).toBe(false);
    expect(bad({ interval: 3601 })).toBe(false);
    expect(bad({ count: 10001 })).toBe(false);
    expect(bad({ sections: [] })).toBe(false);
    expect(bad({ sections: ["B", "B"] })).toBe(false);
    expect(bad({ sections: ["A"] })).toBe(false);
    expect(bad({ interval: 3600, count: 10000 })).toBe(true);
  });
});

describe("sar progress", () => {
  it("counts intervals, not rows, when several sections print per interval", () => {
    const text = fixture("sar", "gen-sar-B-d-r-u.txt");
    const params = preset("all", { count: 2 });
    const firstInterval = text.slice(0, text.indexOf("12:28:11        CPU"));
    expect(extractSarProgress(firstInterval, params)).toMatchObject({ done: 1, total: 2, fraction: 0.5, unit: "samples" });
    expect(extractSarProgress(text, params)).toMatchObject({ done: 2, total: 2, fraction: 1 });
    expect(extractSarProgress("", params)).toMatchObject({ done: 0, total: 2 });
  });

  it("counts samples of one table", () => {
    const text = fixture("sar", "sar-B.txt").split("\n");
    expect(extractSarProgress(text.slice(0, 6).join("\n"), preset("paging", { count: 5 }))?.label).toBe("3 of 5 samples (every 1 s)");
  });
});
