import type { Measurement, NormalisedResult } from "../../probes/core/types";
import type { ChartSeries } from "../../components/charts/result-chart";

export interface ChartSpec {
  title: string;
  kind: "line" | "bar";
  xLabel: string;
  yLabel: string;
  logX?: boolean;
  series: ChartSeries[];
}

function group<T>(items: T[], key: (t: T) => string): Map<string, T[]> {
  const m = new Map<string, T[]>();
  for (const it of items) {
    const k = key(it);
    const list = m.get(k);
    if (list) list.push(it);
    else m.set(k, [it]);
  }
  return m;
}

const num = (m: Measurement, k: string) => Number(m.dims[k]);

function iozoneCharts(ms: Measurement[]): ChartSpec[] {
  const charts: ChartSpec[] = [];
  const auto = ms.filter((m) => "record_kib" in m.dims);
  for (const [file, rows] of group(auto, (m) => String(m.dims.file_kib))) {
    charts.push({
      title: `Throughput against record size, file ${Number(file).toLocaleString("en-US")} KiB`,
      kind: "line",
      xLabel: "record size (KiB)",
      yLabel: "KiB/s",
      logX: true,
      series: [...group(rows, (m) => m.metric)].map(([metric, pts]) => ({ name: metric, points: pts.map((p) => ({ x: num(p, "record_kib"), y: p.value })) })),
    });
  }
  const tp = ms.filter((m) => m.metric.startsWith("throughput_"));
  if (tp.length) {
    charts.push({
      title: "Throughput mode (all processes)",
      kind: "bar",
      xLabel: "test",
      yLabel: "KiB/s",
      series: [{ name: "KiB/s", points: tp.map((m) => ({ x: m.metric.replace("throughput_", ""), y: m.value })) }],
    });
  }
  return charts;
}

function fioCharts(ms: Measurement[]): ChartSpec[] {
  const by = (metric: string, scale: number) =>
    ms.filter((m) => m.metric === metric).map((m) => ({ x: `${m.dims.job} ${m.dims.direction}`, y: m.value / scale }));
  const charts: ChartSpec[] = [
    { title: "fio bandwidth", kind: "bar", xLabel: "job", yLabel: "MiB/s", series: [{ name: "MiB/s", points: by("bw", 2 ** 20) }] },
    { title: "fio IOPS", kind: "bar", xLabel: "job", yLabel: "IOPS", series: [{ name: "IOPS", points: by("iops", 1) }] },
    { title: "fio p99 completion latency", kind: "bar", xLabel: "job", yLabel: "µs", series: [{ name: "p99 µs", points: by("clat_p99", 1000) }] },
  ];
  return charts.filter((c) => (c.series[0]?.points.length ?? 0) > 0);
}

const SAR_METRICS = new Set(["pgscank/s", "pgscand/s", "pgsteal/s", "majflt/s", "%vmeff", "%util", "await", "kbdirty", "%iowait", "%user", "%system", "kbmemfree", "kbcached"]);

function sarCharts(ms: Measurement[]): ChartSpec[] {
  const timed = ms.filter((m) => m.dims.time !== "average" && SAR_METRICS.has(m.metric));
  const label = (m: Measurement) =>
    `${m.metric}${m.dims.device ? ` ${m.dims.device}` : ""}${m.dims.cpu !== undefined && m.dims.cpu !== "all" ? ` cpu${m.dims.cpu}` : ""}`;
  return [...group(timed, (m) => String(m.dims.section))].map(([section, rows]) => ({
    title: `sar ${section}`,
    kind: "line" as const,
    xLabel: "time",
    yLabel: "",
    series: [...group(rows, label)].map(([name, pts]) => ({ name, points: pts.map((p) => ({ x: String(p.dims.time), y: p.value })) })),
  }));
}

/** The charts people expect for one run: iozone curves, dd bars, sar time series, fio bars. */
export function chartsForResult(result: NormalisedResult): ChartSpec[] {
  const ms = result.measurements;
  switch (result.tool) {
    case "iozone":
      return iozoneCharts(ms);
    case "fio":
      return fioCharts(ms);
    case "sar":
      return sarCharts(ms);
    case "fsmeta": {
      const pts = (metric: string, scale: number) => ms.filter((m) => m.metric === metric).map((m) => ({ x: String(m.dims.op), y: m.value / scale }));
      return [
        { title: "files per second", kind: "bar" as const, xLabel: "step", yLabel: "files/s", series: [{ name: "files/s", points: pts("rate", 1) }] },
        { title: "p99 latency", kind: "bar" as const, xLabel: "step", yLabel: "µs", series: [{ name: "p99 µs", points: pts("lat_p99", 1000) }] },
      ].filter((c) => c.series[0]!.points.length > 0);
    }
    case "dd": {
      const t = ms.find((m) => m.metric === "throughput");
      return t ? [{ title: "dd throughput", kind: "bar", xLabel: "", yLabel: "MB/s", series: [{ name: "MB/s", points: [{ x: "throughput", y: t.value / 1e6 }] }] }] : [];
    }
  }
}
