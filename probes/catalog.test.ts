import { describe, expect, it } from "vitest";
import {
  catalog,
  getProbe,
  parseOutput,
  presetParams,
  presetRefs,
  probeIds,
  requiredFreeBytes,
  resolvePreset,
  validateParams,
} from "./catalog";
import { fixture } from "./core/testing";

describe("catalog", () => {
  it("holds the probes with their Debian packages", () => {
    expect(Object.keys(catalog)).toEqual(["iozone", "dd", "sar", "fio", "fsmeta"]);
    expect(probeIds.map((id) => [id, catalog[id].tool.binary, catalog[id].tool.packages.debian])).toEqual([
      ["iozone", "iozone", "iozone3"],
      ["dd", "dd", "coreutils"],
      ["sar", "sar", "sysstat"],
      ["fio", "fio", "fio"],
      ["fsmeta", "fio", "fio"],
    ]);
    expect(catalog.iozone.tool.installHint).toMatch(/non-free/);
    for (const id of probeIds) expect(catalog[id].id).toBe(id);
  });

  it("lists every preset id other code references", () => {
    expect(presetRefs()).toEqual([
      "iozone:ext-article", "iozone:auto-64m", "iozone:auto-64m-direct", "iozone:auto-1g", "iozone:auto-1g-direct", "iozone:throughput-2",
      "dd:write-direct", "dd:read-direct", "dd:write-buffered", "dd:write-nosync",
      "sar:paging", "sar:disk", "sar:memory", "sar:cpu", "sar:all",
      "fio:seq-write", "fio:seq-read", "fio:rand-read-4k", "fio:rand-write-4k",
      "fio:rand-write-4k-buffered", "fio:rand-rw-4k", "fio:rand-rw-4k-qd32", "fio:rand-read-4k-qd32", "fio:rand-write-4k-qd32", "fio:snia-iops-steady",
      "fsmeta:flat-50k", "fsmeta:tree-50k", "fsmeta:quick",
    ]);
  });

  it("every preset and the defaults validate and build an argv command", () => {
    for (const ref of presetRefs()) {
      const v = presetParams(ref, "/srv/probes/target");
      expect(v.ok, ref).toBe(true);
      if (!v.ok) continue;
      const probe = getProbe(ref.split(":")[0] ?? "");
      const cmd = probe?.buildCommand(v.params, "/srv/probes/target/probebook-run-x");
      expect(cmd?.env.LC_ALL).toBe("C");
      expect(cmd?.cwd).toBe("/srv/probes/target/probebook-run-x");
      expect(cmd?.timeoutSec).toBeGreaterThan(0);
      for (const f of cmd?.files ?? []) expect(f.startsWith("/srv/probes/target/probebook-run-x/")).toBe(true);
    }
    for (const id of probeIds) {
      expect(validateParams(id, { ...catalog[id].defaults, target: "/t" }).ok, id).toBe(true);
    }
  });

  it("resolves preset references", () => {
    const r = resolvePreset("iozone:ext-article");
    expect(r).toMatchObject({ probeId: "iozone", presetId: "ext-article", params: { fileSizeMiB: 4096, tests: "all" } });
    expect(resolvePreset("iozone:nope")).toBeUndefined();
    expect(resolvePreset("iozone:toString")).toBeUndefined();
    expect(resolvePreset("hdparm:x")).toBeUndefined();
    expect(resolvePreset("ext-article")).toBeUndefined();
    // callers get a copy: changing it does not change the catalog
    const copy = resolvePreset("sar:all");
    (copy?.params as { count: number }).count = 99;
    expect(resolvePreset("sar:all")?.params).toMatchObject({ count: 10 });
  });

  it("reports field errors by path", () => {
    const v = validateParams("dd", { target: "relative", sizeMiB: 0 });
    expect(v.ok).toBe(false);
    if (v.ok) return;
    expect(Object.keys(v.fieldErrors).sort()).toEqual(["sizeMiB", "target"]);
    expect(v.fieldErrors.target?.join()).toMatch(/absolute/);
    expect(v.message).toMatch(/^Invalid dd parameters: /);
    const nested = validateParams("iozone", { target: "/t", tests: [0, 99] });
    expect(nested.ok ? {} : nested.fieldErrors).toEqual({ tests: ['tests must be "all" or a list of iozone test numbers (0–12)'] });
    const unknown = validateParams("hdparm", {});
    expect(unknown.ok ? null : unknown.fieldErrors.probe).toEqual(['Unknown probe "hdparm": choose one of iozone, dd, sar, fio, fsmeta.']);
    expect(validateParams("sar", null).ok).toBe(false);
  });

  it("parses outputs by probe id", () => {
    const r = parseOutput("dd", fixture("dd", "dd-write-direct.stderr.txt"));
    expect(r.ok && r.result.measurements.find((m) => m.metric === "bytes")?.value).toBe(268435456);
    expect(parseOutput("hdparm", "x")).toEqual({ ok: false, error: 'Unknown probe "hdparm"' });
  });

  it("knows how much each run writes into the target", () => {
    const MiB = 1024 * 1024;
    expect(requiredFreeBytes("iozone", { target: "/t", fileSizeMiB: 4096 })).toBe(4096 * MiB);
    expect(requiredFreeBytes("iozone", { target: "/t", mode: "throughput", processes: 4, fileSizeMiB: 100, tests: [0, 1] })).toBe(400 * MiB);
    expect(requiredFreeBytes("dd", { target: "/t", sizeMiB: 512 })).toBe(512 * MiB);
    // a read lays out its own file first
    expect(requiredFreeBytes("dd", { target: "/t", sizeMiB: 512, mode: "read" })).toBe(512 * MiB);
    expect(requiredFreeBytes("sar", { target: "/t" })).toBe(0);
    expect(requiredFreeBytes("fio", { target: "/t", sizeMiB: 64 })).toBe(64 * MiB);
    expect(requiredFreeBytes("fio", { target: "nope" })).toBe(0);
    expect(requiredFreeBytes("hdparm", {})).toBe(0);
  });
});
