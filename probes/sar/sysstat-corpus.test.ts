// Property tests over whole files of sysstat's own test data (fixtures/sysstat/INDEX.txt): the
// same binary sa file printed as sar text (several locales), sadf -j and sadf -d must give the
// values `sadf -p` prints for it, every one of them, under the same metric names and dims.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { expectOk } from "../core/testing";
import type { Measurement } from "../core/types";
import { parseSar } from "./parse";

const DIR = path.join(__dirname, "fixtures", "sysstat");
const corpora = readdirSync(DIR, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();
const read = (corpus: string, file: string) => readFileSync(path.join(DIR, corpus, file), "utf8");

// The dims that name a row; sadf -p writes them in its 4th field with its own spelling.
// Sensors also carry their chip as "device", so the sensor number comes first.
const ROW_DIMS = ["fan", "temp", "in", "bat", "bus", "iface", "filesystem", "fchost", "intr", "cpu", "tty", "device"] as const;
// sadf -p names a few columns differently from sar's text header.
const ORACLE_METRIC: Record<string, string> = { kbshared: "kbshmem" };

/** sadf -p: host \t interval \t date time tz \t row \t column \t value. Numeric values only. */
function readOracle(text: string): Map<string, number[]> {
  const oracle = new Map<string, number[]>();
  for (const line of text.split("\n")) {
    const f = line.split("\t");
    const value = Number(f[5]);
    // USB ids are hexadecimal words ("3f0", "8087"): dims in our form, never values.
    if (f.length < 6 || f[5] === "" || !Number.isFinite(value) || f[4] === "idvendor" || f[4] === "idprod") continue;
    const time = (f[2] ?? "").split(" ")[1] ?? "";
    // "cpu0", "fan1", "temp1", "in0", "bus2", "ttyS0", "BAT0" → the number sar's text prints.
    const row = (f[3] ?? "").replace(/^(cpu|fan|temp|in|bus|ttyS|BAT)(\d+)$/, "$2");
    const key = `${time}|${row}|${ORACLE_METRIC[f[4] ?? ""] ?? f[4]}`;
    oracle.set(key, [...(oracle.get(key) ?? []), value]);
  }
  return oracle;
}

/** The sadf -p key of one measurement. Interrupts per CPU are columns "all", "cpu0" … there. */
function oracleKey(m: Measurement): string {
  const cpu = m.dims.cpu;
  if (m.metric === "intr/s") {
    const column = cpu === undefined ? "intr/s" : cpu === "all" ? "all" : `cpu${cpu}`;
    return `${m.dims.time}|${m.dims.intr}|${column}`;
  }
  const row = ROW_DIMS.map((d) => m.dims[d]).find((v) => v !== undefined) ?? "-";
  return `${m.dims.time}|${row}|${m.metric}`;
}

interface Comparison {
  matched: number;
  wrong: string[];
  notInOracle: string[];
  unread: string[];
}

// sysstat's test suite printed the upstream text with another fake /sys tree (tests/root7), in
// which block device 202:4096 is named xvdq instead of xvdiw; same device, same numbers.
const DEVICE_ALIASES: Record<string, string> = { xvdq: "xvdiw" };

function compare(measurements: Measurement[], oracle: Map<string, number[]>): Comparison {
  const out: Comparison = { matched: 0, wrong: [], notInOracle: [], unread: [] };
  const seen = new Set<string>();
  // sysstat >= 12.7.5 prints no %vmeff; the parser derives it (parse.test.ts checks the formula).
  const oracleHasVmeff = [...oracle.keys()].some((k) => k.endsWith("|%vmeff"));
  for (const m of measurements) {
    if (m.dims.time === "average" || m.dims.stat !== undefined) continue;
    if (m.metric === "%vmeff" && !oracleHasVmeff) continue;
    const device = typeof m.dims.device === "string" ? DEVICE_ALIASES[m.dims.device] : undefined;
    const key = oracleKey(device ? { ...m, dims: { ...m.dims, device } } : m);
    seen.add(key);
    const expected = oracle.get(key);
    if (!expected) out.notInOracle.push(`${m.dims.section}: ${key}`);
    else if (!expected.some((v) => Math.abs(v - m.value) < 1e-9)) out.wrong.push(`${key}: ${m.value}, sadf -p ${expected.join("|")}`);
    else out.matched++;
  }
  for (const key of oracle.keys()) if (!seen.has(key)) out.unread.push(key);
  return out;
}

/** One sorted line per measurement: the whole parse, to compare two forms of one file. */
const canonical = (ms: Measurement[]) =>
  ms
    .filter((m) => m.dims.time !== "average" && m.dims.stat === undefined)
    .map((m) => {
      const dims = Object.entries(m.dims).map(([k, v]) => [k, k === "device" && typeof v === "string" ? (DEVICE_ALIASES[v] ?? v) : v]);
      return `${m.metric} ${m.value} ${JSON.stringify(Object.fromEntries(dims.sort()))}`;
    })
    .sort();

const FORMAT_OF_LOCALE: Record<string, string> = {
  ja_JP: "ja", zh_CN: "zh_CN", ko_KR: "ko", de_DE: "de", fr_FR: "fr", en_US: "12-hour times",
};

describe.each(corpora)("sysstat data %s", (corpus) => {
  const files = readdirSync(path.join(DIR, corpus));
  const oracle = readOracle(read(corpus, "sadf-p.txt"));
  const textFiles = files.filter((f) => f.startsWith("sar-A.") && !f.startsWith("sar-A-x")).sort();
  const baseline = expectOk(parseSar(read(corpus, "sar-A.C.txt")));

  it("sar -A text (C locale) gives every value sadf -p prints, and no other", () => {
    const c = compare(baseline.measurements, oracle);
    expect(baseline.format).toBe("sar text");
    expect(c.wrong).toEqual([]);
    expect(c.notInOracle).toEqual([]);
    expect(c.unread).toEqual([]);
    expect(c.matched).toBeGreaterThan(300);
  });

  it.each(textFiles.filter((f) => f !== "sar-A.C.txt"))("%s reads the same as the C locale", (file) => {
    const r = expectOk(parseSar(read(corpus, file)));
    expect(r.format).toBe(`sar text (${FORMAT_OF_LOCALE[file.split(".")[1] ?? ""]})`);
    expect(canonical(r.measurements)).toEqual(canonical(baseline.measurements));
    // Averages too: the translated "Average:" label is recognised in every locale.
    const averages = (ms: Measurement[]) => ms.filter((m) => m.dims.time === "average").length;
    expect(averages(r.measurements)).toBe(averages(baseline.measurements));
  });

  it("sadf -j maps every section to sar's column names and dims", () => {
    const r = expectOk(parseSar(read(corpus, "sadf-j.json")));
    expect(r.warnings.filter((w) => /not read/.test(w))).toEqual([]);
    expect(r.format).toBe("sadf -j (JSON)");
    expect(canonical(r.measurements)).toEqual(canonical(baseline.measurements));
  });

  it("sadf -p read as input gives the same measurements as the text", () => {
    const r = expectOk(parseSar(read(corpus, "sadf-p.txt")));
    expect(r.format).toBe("sadf -p");
    expect(r.warnings.filter((w) => /skipped/.test(w))).toEqual([]);
    expect(canonical(r.measurements)).toEqual(canonical(baseline.measurements));
  });

  it("sadf -d (CSV) gives the same values where its header names them", () => {
    const r = expectOk(parseSar(read(corpus, "sadf-d.txt")));
    const c = compare(r.measurements, oracle);
    expect(c.wrong).toEqual([]);
    expect(c.notInOracle).toEqual([]);
    // Per-CPU interrupts are the only values sadf -d leaves unnamed (and the parser says so).
    expect(c.unread.filter((k) => !/\|cpu\d+$/.test(k))).toEqual([]);
  });
});

describe("sar -x (sysstat 12.8): Minimum and Maximum rows", () => {
  const text = read("upstream-12.8", "sar-A-x.C.txt");
  const r = expectOk(parseSar(text));
  const rowOf = (m: Measurement) =>
    `${m.metric} ${JSON.stringify(Object.entries(m.dims).filter(([k]) => k !== "time" && k !== "stat" && k !== "segment").sort())}`;

  it("are their own dims (stat: min|max, no time), never averages", () => {
    const labelled = text.split("\n").filter((l) => /^(Minimum|Maximum):/.test(l)).length;
    const extremes = r.measurements.filter((m) => m.dims.stat !== undefined);
    expect(extremes.every((m) => m.dims.time === undefined && (m.dims.stat === "min" || m.dims.stat === "max"))).toBe(true);
    expect(new Set(extremes.map(rowOf)).size).toBeGreaterThan(labelled / 4);
    // The averages are exactly those of the same file without -x.
    const plain = expectOk(parseSar(read("upstream-12.8", "sar-A.C.txt")));
    const averages = (ms: Measurement[]) => canonical(ms.map((m) => (m.dims.time === "average" ? { ...m, dims: { ...m.dims, time: "avg" } } : m)));
    expect(averages(r.measurements)).toEqual(averages(plain.measurements));
  });

  it("every Minimum is the smallest and every Maximum the largest sample of its row", () => {
    // sar summarises each stretch between restarts on its own: samples after a summary block
    // belong to the next stretch (measurements come out in the order of the file).
    // sar leaves a CPU out of its extremes in intervals where it had no ticks (offline), which it
    // prints as 100 % idle and zeros elsewhere.
    const idle = new Set(
      r.measurements.filter((m) => m.metric === "%idle" && m.value === 100).map((m) => `${m.dims.time} ${m.dims.cpu}`),
    );
    const samples = new Map<string, number[]>();
    const extremes: { key: string; m: Measurement }[] = [];
    let stretch = 0;
    let inSummary = false;
    for (const m of r.measurements) {
      if (m.dims.stat !== undefined) {
        inSummary = true;
        extremes.push({ key: `${stretch} ${rowOf(m)}`, m });
        continue;
      }
      if (m.dims.time === "average" || (m.dims.section === "cpu" && idle.has(`${m.dims.time} ${m.dims.cpu}`))) continue;
      if (inSummary) {
        stretch++;
        inSummary = false;
      }
      const key = `${stretch} ${rowOf(m)}`;
      samples.set(key, [...(samples.get(key) ?? []), m.value]);
    }
    const wrong: string[] = [];
    for (const { key, m } of extremes) {
      const values = samples.get(key) ?? [];
      const expected = m.dims.stat === "min" ? Math.min(...values) : Math.max(...values);
      if (Math.abs(expected - m.value) > 1e-9) wrong.push(`${key} ${m.dims.stat}: ${m.value}, samples give ${expected}`);
    }
    expect(wrong).toEqual([]);
    expect(extremes.length).toBeGreaterThan(1000);
    expect(stretch).toBeGreaterThan(0);
  });
});

describe("sar --pretty and --dec=0 (sysstat 12.8)", () => {
  const plain = expectOk(parseSar(read("upstream-12.8", "sar-A.C.txt"))).measurements;
  // The -A text names block device 202:4096 "xvdq", the --dec=0 text "xvdiw" (see DEVICE_ALIASES).
  const keyOf = (m: Measurement) =>
    `${m.metric} ${JSON.stringify(Object.entries(m.dims).map(([k, v]) => [k, k === "device" ? (DEVICE_ALIASES[String(v)] ?? v) : v]).sort())}`;
  const byKey = new Map(plain.map((m) => [keyOf(m), m.value]));

  it("--pretty -d: the same disk values as -A, with DEV moved to the end", () => {
    const r = expectOk(parseSar(read("upstream-12.8", "sar-d-pretty.C.txt")));
    expect(r.measurements.length).toBeGreaterThan(100);
    const wrong = r.measurements.filter((m) => byKey.get(keyOf(m)) !== m.value).map(keyOf);
    expect(wrong).toEqual([]);
  });

  it("--dec=0 -A: every value is -A's value rounded to a whole number", () => {
    const r = expectOk(parseSar(read("upstream-12.8", "sar-A-dec0.C.txt")));
    expect(r.measurements.length).toBe(plain.length);
    // %vmeff is derived from rounded counters here, so it is compared loosely.
    const wrong = r.measurements
      .filter((m) => {
        const exact = byKey.get(keyOf(m));
        if (exact === undefined) return true;
        return Math.abs(exact - m.value) > (m.metric === "%vmeff" ? 100 : 0.5 + 1e-9);
      })
      .map(keyOf);
    expect(wrong).toEqual([]);
  });
});
