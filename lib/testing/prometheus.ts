// Reading /metrics in tests, twice over: parse-prometheus-text-format (prom2json's output shape)
// reads the families and their types, and a strict reader of the text format's grammar
// (https://prometheus.io/docs/instrumenting/exposition_formats/) checks every line and gives the
// samples. The library is lenient (a value "notanumber" passes) and folds every labelled
// histogram into one unlabelled sample, losing its _count and _sum, so it cannot read those.
import parsePrometheusTextFormat, { type PromFamily } from "parse-prometheus-text-format";

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Scrape {
  families: Map<string, PromFamily>;
  samples: Sample[];
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL = /\s*([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\[\\"n])*)"\s*(,|$)/y;
// Go's ParseFloat, which Prometheus reads values with, takes Inf and NaN in any case (prom-client writes "Nan").
const VALUE = /^(?:[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?|[+-]?inf(?:inity)?|nan)$/i;
const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+(-?\d+))?$/;
const TYPES = new Set(["counter", "gauge", "histogram", "summary", "untyped"]);

function labelsOf(text: string, line: string): Record<string, string> {
  const out: Record<string, string> = {};
  LABEL.lastIndex = 0;
  while (LABEL.lastIndex < text.length) {
    const m = LABEL.exec(text);
    if (!m) throw new Error(`malformed labels in: ${line}`);
    if (m[1]! in out) throw new Error(`label ${m[1]} twice in: ${line}`);
    out[m[1]!] = m[2]!.replace(/\\(.)/g, (_s, c: string) => (c === "n" ? "\n" : c));
    if (m[3] === "") break;
  }
  return out;
}

/** Every line checked against the grammar; histograms checked for cumulative buckets ending at _count. Throws on the first fault. */
function strictSamples(text: string): Sample[] {
  if (!text.endsWith("\n")) throw new Error("the text must end with a line feed");
  const typed = new Map<string, string>();
  const samples: Sample[] = [];
  for (const line of text.split("\n")) {
    if (line === "") continue;
    const meta = /^# (HELP|TYPE) (\S+)(?: (.*))?$/.exec(line);
    if (meta) {
      if (!NAME.test(meta[2]!)) throw new Error(`bad metric name in: ${line}`);
      if (meta[1] === "TYPE") {
        if (!TYPES.has(meta[3] ?? "")) throw new Error(`bad type in: ${line}`);
        if (typed.has(meta[2]!)) throw new Error(`TYPE twice for ${meta[2]}`);
        typed.set(meta[2]!, meta[3]!);
      }
      continue;
    }
    if (line.startsWith("#")) continue;
    const m = SAMPLE.exec(line);
    if (!m || !VALUE.test(m[3]!)) throw new Error(`malformed sample: ${line}`);
    samples.push({ name: m[1]!, labels: m[2] ? labelsOf(m[2], line) : {}, value: Number(m[3]!.replace(/^([+-]?)inf(inity)?$/i, "$1Infinity").replace(/^nan$/i, "NaN")) });
  }
  for (const [name, type] of typed) {
    if (type !== "histogram") continue;
    const key = (l: Record<string, string>) => JSON.stringify(Object.entries(l).filter(([k]) => k !== "le").sort());
    const series = new Map<string, Sample[]>();
    for (const s of samples.filter((x) => x.name === `${name}_bucket`)) series.set(key(s.labels), [...(series.get(key(s.labels)) ?? []), s]);
    for (const [k, buckets] of series) {
      const counts = buckets.map((b) => b.value);
      if (counts.some((c, i) => i > 0 && c < counts[i - 1]!)) throw new Error(`${name}: buckets not cumulative`);
      const inf = buckets.find((b) => b.labels.le === "+Inf");
      const count = samples.find((x) => x.name === `${name}_count` && key(x.labels) === k);
      if (!inf || !count || inf.value !== count.value) throw new Error(`${name}: the +Inf bucket is not _count`);
    }
  }
  return samples;
}

/** A scrape read both ways; throws when the text is not the exposition format. */
export function parseMetrics(text: string): Scrape {
  const samples = strictSamples(text);
  const families = new Map(parsePrometheusTextFormat(text).map((f) => [f.name, f]));
  if (families.size === 0) throw new Error("no metric families in the text");
  return { families, samples };
}

/**
 * A counter's or gauge's value, or a histogram's count, summed over the samples whose labels
 * include `labels`; 0 when none has them yet (the family itself must exist).
 */
export function metricValue(scrape: Scrape, name: string, labels: Record<string, string> = {}): number {
  const type = scrape.families.get(name)?.type;
  if (!type) throw new Error(`no metric ${name}`);
  const series = type === "HISTOGRAM" || type === "SUMMARY" ? `${name}_count` : name;
  return scrape.samples.filter((s) => s.name === series && Object.entries(labels).every(([k, v]) => s.labels[k] === v)).reduce((n, s) => n + s.value, 0);
}
