import { describe, expect, it } from "vitest";
import { expectError, expectOk, fixture, one } from "../core/testing";
import { parseIozone } from "./parse";

const parse = (name: string) => expectOk(parseIozone(fixture("iozone", name)));
const cell = (ms: ReturnType<typeof parse>["measurements"], metric: string, file: number, rec: number) =>
  one(ms, metric, { file_kib: file, record_kib: rec }).value;

describe("iozone auto table (3.489)", () => {
  it("reads every cell of iozone -a -s 64m -q 256 -y 4 -i 0 -i 1 -i 2", () => {
    const r = parse("iozone-auto-64m.txt");
    expect(r.toolVersion).toBe("3.489");
    expect(r.measurements).toHaveLength(7 * 6);
    expect(r.warnings).toEqual([]);
    const ms = r.measurements;
    expect(cell(ms, "write", 65536, 4)).toBe(1527924);
    expect(cell(ms, "read", 65536, 8)).toBe(15956406);
    expect(cell(ms, "reread", 65536, 16)).toBe(8683607);
    expect(cell(ms, "random_write", 65536, 256)).toBe(18783760);
    // 8-digit values separated by a single space
    expect(cell(ms, "rewrite", 65536, 256)).toBe(13568317);
    expect(ms.every((m) => m.unit === "KiB/s")).toBe(true);
    expect(ms.some((m) => m.metric === "backward_read")).toBe(false);
  });

  it("reads the O_DIRECT run", () => {
    const ms = parse("iozone-auto-64m-I-odirect.txt").measurements;
    expect(cell(ms, "rewrite", 65536, 128)).toBe(2095077);
    expect(cell(ms, "random_read", 65536, 4)).toBe(75863);
    expect(cell(ms, "write", 65536, 256)).toBe(2054028);
  });

  it("reads all 13 columns and does not double count the -R report", () => {
    const ms = parse("iozone-auto-64m-alltests-R.txt").measurements;
    expect(ms).toHaveLength(7 * 13);
    expect(cell(ms, "backward_read", 65536, 128)).toBe(4848379);
    expect(cell(ms, "record_rewrite", 65536, 256)).toBe(61759134);
    expect(cell(ms, "stride_read", 65536, 4)).toBe(5272445);
    expect(cell(ms, "fwrite", 65536, 64)).toBe(14589498);
    expect(cell(ms, "freread", 65536, 16)).toBe(15984242);
  });

  it("uses the -R report alone when the table is missing", () => {
    const text = fixture("iozone", "iozone-auto-64m-alltests-R.txt").replace(/^ +65536 .*$/gm, "");
    const ms = expectOk(parseIozone(text)).measurements;
    expect(ms).toHaveLength(7 * 13);
    expect(cell(ms, "frewrite", 65536, 32)).toBe(10439007);
    expect(cell(ms, "random_read", 65536, 128)).toBe(12183869);
  });

  it("keeps 42 cells for the -i 0 -i 1 -i 2 -R run", () => {
    const ms = parse("iozone-auto-64m-R.txt").measurements;
    expect(ms).toHaveLength(42);
    expect(cell(ms, "read", 65536, 32)).toBe(19673756);
    expect(cell(ms, "random_write", 65536, 8)).toBe(6149558);
  });

  it("reads several file sizes in one table (-n 8m -g 64m)", () => {
    const ms = parse("iozone-auto-n8m-g64m.txt").measurements;
    expect(ms).toHaveLength(4 * 7 * 4);
    expect(new Set(ms.map((m) => m.dims.file_kib))).toEqual(new Set([8192, 16384, 32768, 65536]));
    expect(cell(ms, "write", 16384, 8)).toBe(710309);
    expect(cell(ms, "read", 32768, 256)).toBe(1768299);
    expect(cell(ms, "rewrite", 65536, 32)).toBe(5222459);
  });

  it("places cells after blank columns by alignment (stride only, backward only)", () => {
    const stride = parse("gen-iozone-stride-only.txt").measurements;
    expect(cell(stride, "stride_read", 8192, 16)).toBe(6104267);
    expect(stride.filter((m) => m.metric === "read")).toHaveLength(0);
    const bkwd = parse("gen-iozone-bkwd-only.txt").measurements;
    expect(cell(bkwd, "backward_read", 8192, 32)).toBe(8436380);
    expect(cell(bkwd, "rewrite", 8192, 64)).toBe(9234488);
  });

  it("reads fwrite/frewrite with a -R report without doubles", () => {
    const ms = parse("gen-iozone-fwrite-R.txt").measurements;
    expect(ms).toHaveLength(5 * 4);
    expect(cell(ms, "fwrite", 8192, 64)).toBe(8714540);
    expect(cell(ms, "frewrite", 8192, 4)).toBe(2241368);
  });

  it("skips the 0 cells the -R report prints for record sizes that were not run", () => {
    const ms = parse("gen-iozone-range-skip-R.txt").measurements;
    expect(ms).toHaveLength(31 * 2);
    expect(ms.some((m) => m.dims.file_kib === 32768 && Number(m.dims.record_kib) < 64)).toBe(false);
    expect(cell(ms, "write", 32768, 64)).toBe(2056890);
    expect(cell(ms, "rewrite", 16384, 16384)).toBe(5645791);
  });

  it("reads single-row runs on tmpfs and loop-mounted ext3/ext4/xfs", () => {
    expect(cell(parse("iozone-shm-I.txt").measurements, "reread", 16384, 64)).toBe(19714086);
    expect(cell(parse("iozone-shm-I.txt").measurements, "write", 16384, 64)).toBe(351927);
    expect(cell(parse("iozone-loop-ext3-I.txt").measurements, "write", 32768, 64)).toBe(694413);
    expect(cell(parse("iozone-loop-ext4-I.txt").measurements, "reread", 32768, 64)).toBe(4166356);
    expect(cell(parse("iozone-loop-xfs-I.txt").measurements, "read", 32768, 64)).toBe(3921918);
  });
});

describe("older and reformatted iozone tables", () => {
  it("reads the 3.318 layout of the 2009 article (KB header, 8-wide columns)", () => {
    const r = parse("hand-iozone-3.318-ext-article.txt");
    expect(r.toolVersion).toBe("3.318");
    expect(r.measurements).toHaveLength(7 * 13);
    expect(cell(r.measurements, "random_read", 4194304, 4)).toBe(1021);
    expect(cell(r.measurements, "stride_read", 4194304, 256)).toBe(36011);
    expect(cell(r.measurements, "freread", 4194304, 64)).toBe(62103);
  });

  it("reads blank cells in the 3.318 layout", () => {
    const ms = parse("hand-iozone-3.318-skipped.txt").measurements;
    expect(ms.map((m) => [m.metric, m.value])).toEqual([
      ["write", 31782], ["rewrite", 22524], ["random_read", 816017], ["random_write", 10411], ["stride_read", 3779260],
    ]);
  });

  it("handles a tab-separated header and tab-separated rows", () => {
    const r = parse("hand-iozone-tab-header.txt");
    expect(r.toolVersion).toBe("3.506");
    expect(cell(r.measurements, "stride_read", 8192, 4)).toBe(2941555);
    expect(cell(r.measurements, "write", 8192, 8)).toBe(1778932);
    expect(cell(r.measurements, "stride_read", 8192, 16)).toBe(6104267);
    expect(r.measurements).toHaveLength(9);
  });

  it("handles a table re-indented as a whole (pasted into mail or markdown)", () => {
    const text = fixture("iozone", "gen-iozone-stride-only.txt").split("\n").map((l) => `      ${l}`).join("\n");
    expect(cell(expectOk(parseIozone(text)).measurements, "stride_read", 8192, 64)).toBe(9133841);
  });

  it("accepts decimal commas in cells", () => {
    const text = [
      "              kB  reclen    write  rewrite    read    reread",
      "           65536       4  1509283  4428671  4734963  5142537",
      "           65536       8  2196391,5  6876794  7584344  8332712",
    ].join("\n");
    const ms = expectOk(parseIozone(text)).measurements;
    expect(cell(ms, "write", 65536, 8)).toBe(2196391.5);
  });
});

describe("iozone throughput mode", () => {
  it("reads Children see throughput lines of -t 2", () => {
    const r = parse("iozone-throughput-t2-32m.txt");
    expect(r.measurements.map((m) => [m.metric, m.value, m.dims.processes])).toEqual([
      ["throughput_initial_writers", 5272683.12, 2],
      ["throughput_rewriters", 24164274, 2],
      ["throughput_readers", 32972381, 2],
      ["throughput_re_readers", 20096518, 2],
    ]);
    expect(r.measurements.every((m) => m.unit === "KiB/s")).toBe(true);
  });

  it("ignores the -R throughput report that repeats those lines", () => {
    const ms = parse("gen-iozone-throughput-R.txt").measurements;
    expect(ms).toHaveLength(6);
    expect(one(ms, "throughput_random_writers").value).toBe(10053308);
    expect(one(ms, "throughput_random_readers").value).toBe(15497323);
  });

  it("reads OPS mode (-O) as operations per second", () => {
    const text = [
      "\tOPS Mode. Output is in operations per second.",
      "              kB  reclen    write  rewrite    read    reread    read     write     read   rewrite      read   fwrite frewrite    fread  freread",
      "            1024      32   107735   394983                                                                                                    ",
      "\tChildren see throughput for  1 initial writers \t=   58213.51 ops/sec",
      "iozone test complete.",
    ].join("\n");
    const r = expectOk(parseIozone(text));
    expect(one(r.measurements, "rewrite", { file_kib: 1024, record_kib: 32 })).toMatchObject({ value: 394983, unit: "1/s" });
    expect(one(r.measurements, "throughput_initial_writers")).toMatchObject({ value: 58213.51, unit: "1/s" });
    expect(r.warnings.join()).toMatch(/OPS mode/);
  });

  it("reads the older KB/sec spelling", () => {
    const text = "\tChildren see throughput for  4 initial writers \t=  123456.78 KB/sec\n";
    expect(one(expectOk(parseIozone(text)).measurements, "throughput_initial_writers", { processes: 4 }).value).toBe(123456.78);
  });
});

describe("iozone errors", () => {
  it("explains a test file that cannot be opened", () => {
    expect(expectError(parseIozone(fixture("iozone", "iozone-error-nonexistent-dir.txt")))).toBe(
      "iozone could not open its test file /nonexistent/iozone.tmp: No such file or directory",
    );
  });

  it("keeps the rows printed before a failure, with a warning", () => {
    const text = `${fixture("iozone", "iozone-auto-64m.txt").split("\n").slice(0, 30).join("\n")}\nError writing block 12, fd= 3\nwrite: No space left on device\n`;
    const r = expectOk(parseIozone(text));
    expect(r.measurements.length).toBeGreaterThan(0);
    expect(r.warnings.join(" ")).toMatch(/stopped early.*No space left on device/);
  });

  it("warns when the output is truncated", () => {
    const text = fixture("iozone", "iozone-auto-64m.txt").split("\n").slice(0, 31).join("\n");
    expect(expectOk(parseIozone(text)).warnings.join(" ")).toMatch(/truncated/);
  });

  it("rejects other text", () => {
    expect(expectError(parseIozone("hello"))).toBe("not iozone output: no result table found");
    expect(expectError(parseIozone(fixture("sar", "sar-B.txt")))).toMatch(/^not iozone output/);
    const banner = fixture("iozone", "iozone-auto-64m.txt").split("\n").slice(0, 20).join("\n");
    expect(expectError(parseIozone(banner))).toMatch(/no results/);
  });
});
