import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { telemetryCompareModel } from "./compare-panels";
import type { PanelSample } from "./panels";

const samples = (name: string) =>
  (JSON.parse(fs.readFileSync(path.join(import.meta.dirname, "../diagnosis/fixtures", `${name}.json`), "utf8")) as { samples: PanelSample[] }).samples;

describe("telemetry overlaid per run on the compare page", () => {
  it("one line per run on whole seconds, charts only where some run has a value", () => {
    const loop = samples("telemetry-fio-seqwrite-qd64-loop");
    const idle = samples("telemetry-idle");
    const m = telemetryCompareModel([
      { runId: "a", label: "loop", probe: "fio", index: 0, samples: loop },
      { runId: "b", label: "idle", probe: "dd", index: 1, samples: idle },
      { runId: "c", label: "none", probe: "dd", index: 2, samples: [] },
    ]);
    expect(m.series.map((s) => s.label)).toEqual(["loop", "idle"]);
    const util = m.charts.find((c) => c.id === "telemetry-device-util-util")!;
    expect(util.yUnit).toBe("% busy");
    const row = util.rows.find((r) => r.x === Math.round(loop[1]!.t))!;
    expect(row.stats.t0?.median).toBe(Math.round(loop[1]!.device!.util * 100) / 100);
    // Nothing scanned directly on either run: no such chart.
    expect(m.charts.some((c) => c.id === "telemetry-scanning-pgscand")).toBe(false);
  });
});
