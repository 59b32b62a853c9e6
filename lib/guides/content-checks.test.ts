import { describe, expect, it } from "vitest";
import { getDataset, listDatasets, parseGuide } from "@/content/load";
import { buildChartModel, describePanel } from "./chart-data";
import { loadGuides } from "./catalog";
import { datasetToCsv, parseDownloadFileName } from "./dataset-export";
import { reproduceHref, tunableAnchor } from "./format";
import { buildTunableIndex } from "./tunables";
import { assertGuidesValid, findReferenceProblems } from "./validate";

const guides = loadGuides();
const datasets = listDatasets();

describe("reference checks", () => {
  it("pass for the guides in content/", () => {
    expect(findReferenceProblems(guides, datasets)).toEqual([]);
  });

  it("name the file and the tag of a missing dataset or facet", () => {
    const broken = parseGuide(
      [
        "---",
        'title: "T"',
        'summary: "S"',
        'source: { title: "x", author: "y", year: 2009 }',
        "tags: [a]",
        "tunables: []",
        "presets: []",
        'datasets: ["nope"]',
        'related: ["missing-guide"]',
        "order: 99",
        "---",
        '<DatasetChart id="no-such-data" />',
        '<DatasetChart id="ext-iozone-2009" facet="fly" />',
        '<Tunable name="vm.nothing" />',
        "`<DatasetChart id=\"in-code-is-fine\" />`",
      ].join("\n"),
      "content/guides/broken.mdx",
    );
    const problems = findReferenceProblems([...guides, broken], datasets);
    expect(problems).toHaveLength(5);
    expect(problems.join("\n")).toContain('content/guides/broken.mdx: <DatasetChart id="no-such-data" /> refers to dataset "no-such-data"');
    expect(problems.join("\n")).toContain('asks for facet "fly"');
    expect(() => assertGuidesValid([...guides, broken], datasets)).toThrow(/no-such-data/);
  });
});

describe("tunable index", () => {
  const index = buildTunableIndex(guides);

  it("merges a tunable named by several guides into one entry", () => {
    const numactl = index.filter((t) => t.name === "numactl --interleave=all");
    expect(numactl).toHaveLength(1);
    expect(numactl[0]!.advice.map((a) => a.guide.slug)).toEqual(["linux-memory-numa-databases", "multicore-memory-bandwidth"]);
  });

  it("lists sysctls first and anchors names for links", () => {
    expect(index[0]!.kind).toBe("sysctl");
    const zr = index.find((t) => t.name === "vm.zone_reclaim_mode");
    expect(zr?.anchor).toBe("vm-zone-reclaim-mode");
    expect(zr?.advice[0]?.recommended).toMatch(/^0\b/);
    expect(tunableAnchor("/sys/kernel/mm/transparent_hugepage/enabled")).toBe("sys-kernel-mm-transparent-hugepage-enabled");
  });
});

describe("chart model", () => {
  const iozone = getDataset("ext-iozone-2009")!;

  it("makes one panel per facet, one series per file system, log2 x", () => {
    const m = buildChartModel(iozone);
    expect(m.panels.map((p) => p.facet)).toHaveLength(13);
    expect(m.series.map((s) => s.name)).toEqual(["ext2", "ext3", "ext4"]);
    expect(m.xKind).toBe("log2");
    expect(m.xTicks).toEqual([2, 3, 4, 5, 6, 7, 8]);
    expect(m.yAxisLabel).toBe("KB/s");
  });

  it("keeps only the requested facet", () => {
    const m = buildChartModel(iozone, "write");
    expect(m.panels).toHaveLength(1);
    const first = m.panels[0]!.records[0]!;
    expect(first).toMatchObject({ x: 2, xLabel: "4" });
    expect(typeof first.s0).toBe("number");
    expect(describePanel(m, m.panels[0]!, iozone.title)).toMatch(/^Line chart: .*Operation \(IOzone metric\): write; KB\/s by Record size \(KB\) \(log scale\); one line per file system: ext2, ext3, ext4; highest 226,028 KB\/s/);
  });

  it("draws a log value axis with power-of-ten ticks when asked", () => {
    const m = buildChartModel(getDataset("baidu-media-random-4k")!);
    expect(m.yScale).toBe("log10");
    // 0.34 MB/s (disk writes) to 1496 MB/s (memory): 0.1 … 10,000.
    expect(m.yLogTicks).toEqual([0.1, 1, 10, 100, 1000, 10000]);
    expect(describePanel(m, m.panels[0]!, "t")).toMatch(/MB\/s \(log scale\) by/);
  });

  it("labels each panel of a mixed-unit dataset with its rows' unit, never just \"Value\"", () => {
    for (const id of ["baidu-sorted-random-write", "graphdb-figures-2013", "memcached-facebook-fleet", "baidu-innodb-slc-read-only"]) {
      const m = buildChartModel(getDataset(id)!);
      for (const p of m.panels) {
        expect(p.yAxisLabel, `${id} / ${p.facet}`).not.toMatch(/^Value|^Figure/);
        expect(p.yUnit, `${id} / ${p.facet}`).toBeTruthy();
      }
    }
    const sorted = buildChartModel(getDataset("baidu-sorted-random-write")!, "total write time");
    expect(sorted.panels[0]).toMatchObject({ yUnit: "s", yAxisLabel: "total write time (s)" });
    const graphdb = buildChartModel(getDataset("graphdb-figures-2013")!, "Segments (count)");
    expect(graphdb.panels[0]!.yAxisLabel).toBe("segments, segments/day");
  });

  it("offers every IOzone operation for the picker and shades the ext4 anomalies", () => {
    const m = buildChartModel(iozone, "read");
    expect(m.facets).toHaveLength(13);
    expect(m.panels[0]!.annotations).toEqual([{ from: 5, to: 6, label: "ext4 anomaly" }]);
    expect(describePanel(m, m.panels[0]!, "t")).toMatch(/marked: ext4 anomaly\.$/);
    expect(buildChartModel(iozone, "write").panels[0]!.annotations).toEqual([]);
  });

  it("skips null cells", () => {
    const udp = getDataset("ndb-dd-test-times")!;
    const m = buildChartModel(udp);
    expect(m.panels[0]!.records).toHaveLength(2);
    for (const d of datasets) expect(() => buildChartModel(d)).not.toThrow();
  });
});

describe("downloads and links", () => {
  it("writes RFC 4180 CSV", () => {
    const csv = datasetToCsv(getDataset("baidu-sorted-random-write")!);
    expect(csv.split("\r\n")[0]).toBe("method,metric,published,value,unit,reading");
    expect(csv).toContain('"fully random (host ""150"")"');
  });

  it("parses download names and preset ids", () => {
    expect(parseDownloadFileName("ext-iozone-2009.csv")).toEqual({ id: "ext-iozone-2009", format: "csv" });
    expect(parseDownloadFileName("../x.csv")).toBeNull();
    expect(reproduceHref("sar:paging")).toBe("/runs/new?probe=sar&preset=paging");
    expect(reproduceHref("bad")).toBeNull();
  });
});
