// The server-rendered parts of the sweep view as markup: the heatmap's cells reachable by keyboard
// with their figures as text, the saturation sentence and rule, the points table's problems.
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { SaturationCard } from "./saturation-card";
import { sampleSweep } from "./sample-view";
import { SweepHeatmap } from "./sweep-heatmap";
import { SweepOverlay } from "./sweep-overlay";
import { SweepPointsTable } from "./sweep-points-table";

describe("sweep components", () => {
  it("renders a focusable heatmap cell per grid point, labelled with its figures", () => {
    const html = renderToStaticMarkup(<SweepHeatmap view={sampleSweep()} />);
    const cells = html.match(/<td [^>]*data-testid="sweep-heat-cell"[^>]*>/g) ?? [];
    expect(cells).toHaveLength(9);
    expect(cells.every((c) => c.includes('tabindex="0"') && /aria-label="QD \d+ × \d jobs?: /.test(c))).toBe(true);
    expect(cells.filter((c) => c.includes("(saturation point)"))).toHaveLength(1);
    expect(html).toContain("fio-3.33");
  });

  it("states the saturation sentence with its rule, or why there is none", () => {
    const v = sampleSweep();
    const html = renderToStaticMarkup(<SaturationCard view={v} />);
    expect(html).toContain("This device saturates at QD 16 × 2 jobs: 90 k IOPS at p99 1.9 ms.");
    expect(html).toContain("Rule: the smallest load beyond which IOPS grow by less than 5 %");
    expect(html).toContain("1 job does not saturate within the grid; 2 jobs at QD 16; 4 jobs at QD 4");
    v.saturation = null;
    v.status = "FINISHED";
    for (const p of v.points) if (p.status === "done") Object.assign(p, { status: "invalid", problem: "The device was busy with other work" });
    expect(renderToStaticMarkup(<SaturationCard view={v} />)).toContain("No saturation point: all 8 finished points were flagged by the run checks");
  });

  it("lists points in run order with status, steady state and the problem of a point that does not count", () => {
    const html = renderToStaticMarkup(<SweepPointsTable view={sampleSweep()} />);
    const rows = html.match(/data-testid="sweep-point-row"/g) ?? [];
    expect(rows).toHaveLength(9);
    expect(html.indexOf("QD 1 × 1")).toBeLessThan(html.indexOf("QD 1 × 2"));
    expect(html).toContain("Too short to count (&lt; 5 s)");
    expect(html).toContain("reached after 12 s");
    expect(html).toContain('data-status="running"');
  });

  it("overlays two sweeps with a legend of what differs and both saturation sentences", () => {
    const a = sampleSweep();
    const b = sampleSweep();
    b.fsType = "ext4";
    b.saturation = null;
    const html = renderToStaticMarkup(<SweepOverlay a={a} b={b} />);
    expect(html).toContain("<th scope=\"row\">file system</th><td>xfs</td><td>ext4</td>");
    expect(html).not.toContain("<th scope=\"row\">host</th>");
    expect(html).toContain("A: xfs</a></strong>: This device saturates at QD 16 × 2 jobs");
    expect(html).toContain("B: ext4</a></strong>: no saturation point yet");
    expect(html).toContain("A: fio-3.33 · B: fio-3.33");
  });
});
