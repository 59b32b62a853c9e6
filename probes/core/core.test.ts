import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isNumeric, parseLocaleNumber } from "./number";
import { guardParse, makeProgress } from "./probe";
import { normalisedResultSchema } from "../catalog";
import { inTarget, powersOfTwo, targetSchema } from "./schemas";
import { expandTabs, formatBytes, splitLines, stripAnsi } from "./text";

describe("parseLocaleNumber", () => {
  it.each([
    ["224", 224],
    ["0.124192", 0.124192],
    ["1,2", 1.2],
    ["-0,5", -0.5],
    ["6.1e-05", 6.1e-5],
    ["2,4076e-05", 2.4076e-5],
    ["1E3", 1000],
    ["1 234,5", 1234.5],
    ["1\u00a0234,5", 1234.5],
    ["1\u202f234\u202f567", 1234567],
    ["1.234.567,89", 1234567.89],
    ["1,234,567.89", 1234567.89],
    ["12,345,678", 12345678],
    ["1'234.5", 1234.5],
    ["\u22123.5", -3.5],
    [" 42 ", 42],
  ])("%j → %d", (text, value) => {
    expect(parseLocaleNumber(text)).toBe(value);
  });

  it.each(["", ",", ".", "e5", "abc", "1,2,3.4,5", "12,34,5", "NaN", "Infinity", "0x10", "1e999", "1..2", "--1", "1-2"])(
    "rejects %j",
    (text) => {
      expect(parseLocaleNumber(text)).toBeNull();
    },
  );

  it("round-trips numbers printed in C, German and French styles", () => {
    fc.assert(
      fc.property(fc.double({ min: -1e12, max: 1e12, noNaN: true }), (x) => {
        const c = x.toFixed(2);
        expect(parseLocaleNumber(c)).toBeCloseTo(Number(c), 6);
        expect(parseLocaleNumber(c.replace(".", ","))).toBeCloseTo(Number(c), 6);
        const fr = new Intl.NumberFormat("fr-FR", { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(Number(c));
        expect(parseLocaleNumber(fr)).toBeCloseTo(Number(c), 6);
        const de = new Intl.NumberFormat("de-DE", { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(Number(c));
        expect(parseLocaleNumber(de)).toBeCloseTo(Number(c), 6);
      }),
    );
  });

  it("never throws and returns finite numbers or null", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 80 }), (s) => {
        const v = parseLocaleNumber(s);
        expect(v === null || Number.isFinite(v)).toBe(true);
        expect(isNumeric(s)).toBe(v !== null);
      }),
    );
  });
});

describe("text helpers", () => {
  it("splits \\r, \\n and \\r\\n", () => {
    expect(splitLines("a\rb\r\nc\nd")).toEqual(["a", "b", "c", "d"]);
  });
  it("expands tabs to 8-column stops", () => {
    expect(expandTabs("ab\tc\td")).toBe("ab      c       d");
  });
  it("strips colour escapes", () => {
    expect(stripAnsi("\x1b[1;32m12:00:01\x1b[0m  all")).toBe("12:00:01  all");
    expect(stripAnsi("0.00\x1b[34")).toBe("0.00");
    expect(stripAnsi("0.00\x1b")).toBe("0.00");
  });
  it("formats bytes", () => {
    expect(formatBytes(512)).toBe("512 B");
    expect(formatBytes(4 * 1024 ** 3)).toBe("4.0 GiB");
  });
});

describe("schemas and helpers", () => {
  it("validates stored results, metric vocabulary included", () => {
    const ok = { tool: "dd", toolVersion: null, measurements: [{ metric: "bytes", value: 1, unit: "B", dims: {} }], warnings: [] };
    expect(normalisedResultSchema.safeParse(ok).success).toBe(true);
    expect(normalisedResultSchema.safeParse({ ...ok, tool: "hdparm" }).success).toBe(false);
    const badMetric = { ...ok, measurements: [{ metric: "speed", value: 1, unit: "B", dims: {} }] };
    expect(normalisedResultSchema.safeParse(badMetric).success).toBe(false);
    const nan = { ...ok, measurements: [{ metric: "bytes", value: Number.NaN, unit: "B", dims: {} }] };
    expect(normalisedResultSchema.safeParse(nan).success).toBe(false);
    const iozone = { tool: "iozone", toolVersion: "3.489", measurements: [{ metric: "throughput_re_readers", value: 1, unit: "KiB/s", dims: { processes: 2 } }], warnings: [] };
    expect(normalisedResultSchema.safeParse(iozone).success).toBe(true);
    const sar = { tool: "sar", toolVersion: null, measurements: [{ metric: "pgscand/s", value: 0, unit: "1/s", dims: { section: "paging", time: "average" } }], warnings: [] };
    expect(normalisedResultSchema.safeParse(sar).success).toBe(true);
  });

  it("joins target and file names", () => {
    expect(inTarget("/srv/t", "x")).toBe("/srv/t/x");
    expect(inTarget("/srv/t/", "x")).toBe("/srv/t/x");
    expect(inTarget("/", "x")).toBe("/x");
  });

  it("lists powers of two", () => {
    expect(powersOfTwo(4, 256)).toEqual([4, 8, 16, 32, 64, 128, 256]);
  });

  it("turns a parser crash into a failed parse", () => {
    const parse = guardParse("dd", () => {
      throw new Error("boom");
    });
    expect(parse("x")).toEqual({ ok: false, error: "dd parser failed unexpectedly: boom" });
    expect(parse(undefined as unknown as string)).toEqual({ ok: false, error: "not dd output: expected text" });
  });

  it("clamps progress", () => {
    expect(makeProgress(12, 10, "B", "")).toMatchObject({ done: 10, fraction: 1 });
    expect(makeProgress(-1, 10, "B", "")).toMatchObject({ done: 0, fraction: 0 });
    expect(makeProgress(3, 0, "B", "")).toMatchObject({ total: 0, fraction: 0 });
  });
});

describe("targetSchema refuses shell metacharacters even though no shell is used", () => {
  it.each(["/srv/pb; rm -rf /", "/srv/pb/$(reboot)", "/srv/pb/`reboot`", "/srv/pb|cat", "/srv/pb&", "/srv/pb/>x"])("%s", (t) => {
    expect(targetSchema.safeParse(t).success).toBe(false);
  });
  it.each(["/srv/probebook", "/mnt/data 1/bench", "/dev/shm", "/srv/ünïcode/x", "/srv/a-b_c.d+e@f,g=h:i"])("accepts %s", (t) => {
    expect(targetSchema.safeParse(t).success).toBe(true);
  });
});
