import { describe, expect, it } from "vitest";
import { attachment, csvField, dimsText, fileSlug, measurementsCsv, toCsv } from "./csv";

describe("csvField", () => {
  it("leaves plain text and numbers alone", () => {
    expect(csvField("ext4")).toBe("ext4");
    expect(csvField(1234.5)).toBe("1234.5");
    expect(csvField(-3)).toBe("-3");
    expect(csvField(null)).toBe("");
    expect(csvField(Number.NaN)).toBe("");
  });
  it("quotes commas, quotes, line breaks and edge spaces, doubling quotes", () => {
    expect(csvField("a,b")).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField("two\nlines")).toBe('"two\nlines"');
    expect(csvField("cr\r")).toBe('"cr\r"');
    expect(csvField(" padded")).toBe('" padded"');
  });
  it("defuses spreadsheet formulas in text", () => {
    expect(csvField("=HYPERLINK(\"x\")")).toBe('"\'=HYPERLINK(""x"")"');
    expect(csvField("+1")).toBe("'+1");
    expect(csvField("-rf")).toBe("'-rf");
    expect(csvField("@SUM(A1)")).toBe("'@SUM(A1)");
  });
  it("keeps non-ASCII text as is", () => {
    expect(csvField("Ext2 vs Ext3 性能比拼 · 2009")).toBe("Ext2 vs Ext3 性能比拼 · 2009");
  });
});

describe("toCsv / measurementsCsv", () => {
  it("writes CRLF-terminated lines with a header", () => {
    expect(toCsv(["a", "b"], [[1, "x,y"]])).toBe('a,b\r\n1,"x,y"\r\n');
  });
  it("writes one row per measurement with dims as k=v;k=v", () => {
    const csv = measurementsCsv([
      { label: "db1 · ssd · ext4 · 2026-11-21", result: { measurements: [{ metric: "write", value: 1464782, unit: "KiB/s", dims: { file_kib: 65536, record_kib: 4 } }] } },
      { label: "no result", result: null },
      { label: "dd, imported", result: { measurements: [{ metric: "throughput", value: 2.5e8, unit: "B/s", dims: {} }] } },
    ]);
    expect(csv.split("\r\n")).toEqual([
      "run,metric,dims,value,unit",
      // In display units: KiB/s ÷ 1024 and B/s ÷ 2²⁰ are MiB/s.
      `db1 · ssd · ext4 · 2026-11-21,write,file_kib=65536;record_kib=4,${1464782 / 1024},MiB/s`,
      `"dd, imported",throughput,,${2.5e8 / 2 ** 20},MiB/s`,
      "",
    ]);
  });
  it("dimsText keeps the parser's order", () => {
    expect(dimsText({ section: "disk", time: "12:00:01", device: "vda" })).toBe("section=disk;time=12:00:01;device=vda");
  });
});

describe("download names", () => {
  it("makes a file-name fragment from any title", () => {
    expect(fileSlug("ext4 vs XFS: 4k random!")).toBe("ext4-vs-xfs-4k-random");
    expect(fileSlug("性能")).toBe("comparison");
  });
  it("sends an ASCII filename and the UTF-8 one", () => {
    expect(attachment("a\"b é.csv")).toBe(`attachment; filename="a_b _.csv"; filename*=UTF-8''a%22b%20%C3%A9.csv`);
  });
});
