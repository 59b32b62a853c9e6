import { describe, expect, it } from "vitest";
import { expectOk, fixture } from "../../probes/core/testing";
import { parseSar } from "../../probes/sar/parse";
import { sarView } from "../../probes/sar/view";
import { telemetryPanelsDrawnBy, timelineCharts } from "../diagnosis/run-diagnosis";
import { noTelemetryNote, panelsToDraw, type PanelSample } from "./panels";

const sample = (t: number, device: boolean): PanelSample => ({
  t,
  cpu: { iowait: 2, steal: 0 },
  memory: { dirty: 1024, writeback: 0 },
  paging: { pgscank: 0, pgscand: 0 },
  device: device ? { rkBs: 0, wkBs: 1024, util: 50, rAwait: 0, wAwait: 1, aquSz: 1 } : null,
});

describe("telemetry panels", () => {
  it("say in one line why an imported or history run has none", () => {
    expect(noTelemetryNote("IMPORTED")).toBe("No telemetry: imported runs carry only the tool's output.");
    expect(noTelemetryNote("HISTORY")).toMatch(/^No telemetry: a host's history day/);
  });

  it("leave out the device panels without a device, and what a sar run's diagnosis draws", () => {
    expect(panelsToDraw([sample(0, false)]).map((p) => p.id)).toEqual(["iowait", "dirty", "scanning"]);
    expect(panelsToDraw([sample(0, true)]).map((p) => p.id)).toContain("device-util");
    const timeline = sarView.timeline!(expectOk(parseSar(fixture("sar", "gen-sar-B-d-r-u.txt"))));
    expect(timelineCharts(timeline).map((c) => c.title)).toEqual(expect.arrayContaining(["Page scanning", "Dirty memory"]));
    const elsewhere = telemetryPanelsDrawnBy(timeline);
    expect(elsewhere.sort()).toEqual(["dirty", "scanning"]);
    expect(panelsToDraw([sample(0, true)], elsewhere).map((p) => p.id)).toEqual(["device-throughput", "device-util", "device-await", "iowait"]);
  });
});
