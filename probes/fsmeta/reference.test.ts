import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { ReferenceRow } from "../core/probe";
import { fsmetaProbe } from "./probe";

// The guide's published rates, read as the seed reads them (content/data is JSON, no loader needed).
const dataset = JSON.parse(readFileSync(path.resolve(__dirname, "../../content/data/create-drop-50k-rates.json"), "utf8")) as {
  reference: { probe: string; preset: string; seriesToRuns: boolean };
  chart: { series: string };
  rows: (ReferenceRow & { value: number })[];
};

describe("fsmeta reference runs from the 50,000-table rates", () => {
  it("the dataset names this probe and its flat preset, one run per file system", () => {
    expect(dataset.reference).toMatchObject({ probe: "fsmeta", preset: "fsmeta:flat-50k", seriesToRuns: true });
    expect(dataset.chart.series).toBe("fs");
    expect(Object.keys(fsmetaProbe.presets)).toContain("flat-50k");
  });

  it("maps MyISAM CREATE and DROP to create and delete rates of three files per table", () => {
    const mapped = dataset.rows.map((row) => [row.fs, row.engine, fsmetaProbe.reference!.measurement(row, row.value, {})] as const);
    const dims = (op: string) => ({ op, layout: "flat", files: 150_000, dirs: 1 });
    expect(mapped).toEqual([
      ["ext3", "MyISAM", { metric: "rate", value: 300, unit: "files/s", dims: dims("create") }],
      ["reiserfs v3", "MyISAM", { metric: "rate", value: 300, unit: "files/s", dims: dims("create") }],
      ["xfs", "MyISAM", { metric: "rate", value: 999, unit: "files/s", dims: dims("create") }],
      ["ext3", "MyISAM", { metric: "rate", value: 7500, unit: "files/s", dims: dims("delete") }],
      ["xfs", "MyISAM", { metric: "rate", value: 3000, unit: "files/s", dims: dims("delete") }],
      // InnoDB kept table data in one shared ibdata1: one file per CREATE, not comparable.
      ["xfs", "InnoDB", null],
    ]);
  });
});
