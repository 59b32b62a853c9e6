// fio as the agent runs it (probes/fio/command.ts): ETA lines, then the JSON and the text
// report, then the per-second logs the agent appends. The fixtures are whole stored logs made
// with scripts/capture-fio-live.ts on this machine (see fixtures/README.md).
import { describe, expect, it } from "vitest";
import { splitCollectedFiles } from "../core/collected-files";
import { expectOk, expectValidProgress, expectWellFormed, fixture, one, prefixLengths } from "../core/testing";
import { FIO_PERCENTILES } from "./command";
import { fioParamsSchema } from "./params";
import { parseFio } from "./parse";
import { extractFioProgress } from "./progress";
import { fioView } from "./view";

const RANDRW = fixture("fio", "live/live-3.33-randrw-psync.log");
const TWO_JOBS = fixture("fio", "live/live-3.33-randread-libaio-2jobs.log");
const SEQ = fixture("fio", "live/live-3.33-seqwrite.log");
const params = fioParamsSchema.parse({ target: "/t", rw: "randrw", rwmixread: 70, runtimeSec: 5 });
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

describe("fio's live log", () => {
  it("holds ETA lines, the JSON and text reports, and the three appended logs", () => {
    expect(RANDRW).toMatch(/Jobs: 1 \(f=1\): \[m\(1\)\]\[\d+\.\d%\]\[r=[^\]]+\]\[r=\d+,w=\d+ IOPS\]\[eta \d+m:\d+s\]/);
    const { output, files } = splitCollectedFiles(RANDRW);
    expect(files.map((f) => f.name)).toEqual(["probebook_bw.1.log", "probebook_clat.1.log", "probebook_iops.1.log"]);
    expect(output).toContain('"fio version"');
    expect(output).toContain("Run status group 0");
    expect(output).not.toContain("probebook file");
  });

  it("parses the JSON report beside the ETA lines and the text report", () => {
    const r = expectOk(parseFio(RANDRW));
    expect(r.format).toBe("fio JSON 3.x");
    expect(r.warnings).toEqual([]);
    for (const direction of ["read", "write"]) {
      expect(one(r.measurements, "bw", { direction }).value).toBeGreaterThan(0);
      // The whole curve: every percentile the command asks for.
      const ps = r.measurements.filter((m) => m.dims.direction === direction && /^clat_p/.test(m.metric)).map((m) => Number(m.metric.slice(6)));
      expect(ps.sort((a, b) => a - b)).toEqual([...FIO_PERCENTILES]);
    }
  });

  it("keeps fio's latency histogram: buckets of the job's I/Os that add up to 100 %", () => {
    const r = expectOk(parseFio(RANDRW));
    const shares = r.measurements.filter((m) => m.metric === "lat_share");
    expect(shares.length).toBeGreaterThanOrEqual(30);
    expect(mean([shares.reduce((a, m) => a + m.value, 0)])).toBeCloseTo(100, 0);
    expect(shares.find((m) => m.dims.lat_ge_ns === 2e9)).toBeDefined();
  });

  it("reads a value a second per direction from the logs, in line with fio's totals", () => {
    const r = expectOk(parseFio(RANDRW));
    for (const direction of ["read", "write"]) {
      const bw = r.measurements.filter((m) => m.metric === "bw_series" && m.dims.direction === direction);
      expect(bw.length).toBeGreaterThanOrEqual(3);
      const ts = bw.map((m) => m.dims.t as number);
      expect(ts).toEqual([...ts].sort((a, b) => a - b));
      expect(ts[0]).toBeGreaterThan(0.9);
      expect(mean(bw.map((m) => m.value)) / one(r.measurements, "bw", { direction }).value).toBeGreaterThan(0.7);
      expect(mean(bw.map((m) => m.value)) / one(r.measurements, "bw", { direction }).value).toBeLessThan(1.3);
      const clat = r.measurements.filter((m) => m.metric === "clat_mean_series" && m.dims.direction === direction);
      expect(mean(clat.map((m) => m.value)) / one(r.measurements, "clat_mean", { direction }).value).toBeGreaterThan(0.5);
      expect(r.measurements.filter((m) => m.metric === "iops_series" && m.dims.direction === direction)).toHaveLength(bw.length);
    }
  });

  it("adds up the jobs' seconds when several jobs run", () => {
    const r = expectOk(parseFio(TWO_JOBS));
    const bw = r.measurements.filter((m) => m.metric === "bw_series" && m.dims.direction === "read");
    const files = splitCollectedFiles(TWO_JOBS).files.filter((f) => f.name.includes("_bw."));
    expect(files).toHaveLength(2);
    const firstOfEach = files.map((f) => Number(f.content.split("\n")[0]!.split(",")[1]) * 1024);
    expect(bw[0]!.value).toBe(firstOfEach[0]! + firstOfEach[1]!);
    expect(bw[0]!.dims.job).toBe("probebook-randread");
    expect(mean(bw.map((m) => m.value)) / one(r.measurements, "bw", { direction: "read" }).value).toBeGreaterThan(0.7);
  });

  it("copes with logs too short to hold a second (a fast one-pass write)", () => {
    const r = expectOk(parseFio(SEQ));
    expect(r.measurements.filter((m) => m.metric === "bw_series")).toEqual([]);
    expect(r.measurements.filter((m) => m.metric === "clat_mean_series").length).toBeLessThanOrEqual(1);
  });

  it("says so when the log ends inside an appended file", () => {
    const cut = RANDRW.slice(0, RANDRW.indexOf("[probebook end probebook_iops"));
    const r = expectOk(parseFio(cut));
    expect(r.warnings.join(" ")).toMatch(/cut short \(probebook_iops\.1\.log\)/);
  });
});

describe("fio live progress", () => {
  const at = (text: string) => extractFioProgress(text, params);

  it("follows the ETA lines from the start to the report", () => {
    const header = RANDRW.slice(0, RANDRW.indexOf("Laying out"));
    expect(at(header)).toMatchObject({ fraction: 0, label: "starting" });
    expect(at(RANDRW.slice(0, RANDRW.indexOf("Jobs:")))).toMatchObject({ fraction: 0, label: "laying out the file" });
    const firstEta = RANDRW.indexOf("[eta");
    const p = at(RANDRW.slice(0, RANDRW.indexOf("]", firstEta) + 1))!;
    expect(p.fraction).toBeGreaterThan(0);
    expect(p.fraction).toBeLessThan(1);
    expect(p.label).toMatch(/^\d+\.\d %, r=[\d.]+[KM]iB\/s,w=[\d.]+[KM]iB\/s, ETA \d+m:\d+s$/);
    expect(at(RANDRW)).toMatchObject({ fraction: 1, label: "finished, writing the report" });
  });

  it("parser and extractor survive sampled prefixes of each live log", () => {
    for (const text of [RANDRW, TWO_JOBS, SEQ]) {
      for (const n of prefixLengths(text, 300)) {
        expectWellFormed(parseFio(text.slice(0, n)), "fio");
        expectValidProgress(extractFioProgress(text.slice(0, n), params));
      }
    }
  });

  it("never goes backwards over a live log", () => {
    let last = 0;
    for (let end = 0; end <= RANDRW.length; end += 97) {
      const f = at(RANDRW.slice(0, end))?.fraction ?? 0;
      expect(f).toBeGreaterThanOrEqual(last);
      last = f;
    }
  });
});

describe("fio view", () => {
  const r = expectOk(parseFio(RANDRW));

  it("draws the percentile curve on a nines axis, the histogram and the seconds", () => {
    const charts = fioView.runCharts(r);
    const curve = charts.find((c) => c.title === "fio completion latency percentiles")!;
    expect(curve.series.map((s) => s.name)).toEqual(["probebook-randrw read", "probebook-randrw write"]);
    expect(curve.series[0]!.points).toHaveLength(FIO_PERCENTILES.length);
    const p99 = curve.series[0]!.points.find((p) => p.label === "p99")!;
    expect(p99.x).toBeCloseTo(2, 9);
    expect(p99.y).toBe(one(r.measurements, "clat_p99", { direction: "read" }).value / 1000);
    expect(curve.xTicks?.map((t) => t.label)).toEqual(["p0", "p50", "p90", "p99", "p99.9", "p99.99", "p99.999"]);
    const hist = charts.find((c) => c.title === "fio latency histogram")!;
    expect(hist.kind).toBe("bar");
    expect(hist.series[0]!.points.reduce((a, p) => a + p.y, 0)).toBeCloseTo(100, 0);
    expect(charts.map((c) => c.title)).toEqual(expect.arrayContaining(["fio bandwidth over time", "fio IOPS over time", "fio mean completion latency over time"]));
  });

  it("gives its progress over elapsed time from the result, and from the raw log alone", () => {
    const series = fioView.progress!(r, RANDRW);
    expect(series.map((s) => s.key)).toEqual(["fio.bw.read", "fio.bw.write", "fio.iops.read", "fio.iops.write", "fio.clat.read", "fio.clat.write"]);
    const bw = series.find((s) => s.key === "fio.bw.read")!;
    expect(bw.unit).toBe("MiB/s");
    expect(bw.points[0]!.v).toBeCloseTo(r.measurements.find((m) => m.metric === "bw_series")!.value / 1024 / 1024, 9);
    expect(series.find((s) => s.key === "fio.clat.read")!.unit).toBe("µs");
    expect(fioView.progress!(null, RANDRW).map((s) => s.points)).toEqual(series.map((s) => s.points));
    expect(fioView.progress!(null, RANDRW.slice(0, RANDRW.indexOf("[probebook file")))).toEqual([]);
  });

  it("compares runs' percentile curves per direction", () => {
    const other = expectOk(parseFio(fixture("fio", "fio-3.33-randrw-libaio.json")));
    const run = (result: typeof r) => ({ params: {}, result, targetDevice: null });
    const section = fioView.compareSection([
      { key: "s0", label: "psync", runs: [run(r)] },
      { key: "s1", label: "libaio", runs: [run(other)] },
    ]);
    const curve = section.charts.find((c) => c.id === "fio-clat-curve-read")!;
    expect(curve.rows.map((row) => row.x)).toEqual(["p50", "p90", "p99", "p99.9", "p99.99"].concat(curve.rows.length === 6 ? ["p99.999"] : []));
    expect(curve.seriesKeys).toEqual(["s0", "s1"]);
    expect(curve.rows[0]!.values.s0).toEqual([one(r.measurements, "clat_p50", { direction: "read" }).value / 1000]);
    // The histograms side by side, over the buckets either run used.
    const hist = section.charts.find((c) => c.id === "fio-latency-histogram")!;
    expect(hist.kind).toBe("bar");
    expect(hist.seriesKeys).toEqual(["s0", "s1"]);
    const total = (key: string) => hist.rows.reduce((a, row) => a + (row.values[key]?.[0] ?? 0), 0);
    expect(total("s0")).toBeCloseTo(100, 0);
    expect(total("s1")).toBeCloseTo(100, 0);
  });
});
