import { describe, expect, it } from "vitest";
import { expectError, expectOk, fixture, one } from "../core/testing";
import { parseDd } from "./parse";
import { lastTransfer, segments } from "./summary";

const metrics = (text: string) => {
  const r = expectOk(parseDd(text));
  return {
    bytes: one(r.measurements, "bytes").value,
    seconds: one(r.measurements, "seconds").value,
    throughput: one(r.measurements, "throughput").value,
    warnings: r.warnings,
  };
};

describe("dd summaries (coreutils 9.1 fixtures)", () => {
  it.each([
    ["dd-write-direct.stderr.txt", 268435456, 0.124192],
    ["dd-write-buffered-fdatasync.stderr.txt", 268435456, 0.93881],
    ["dd-write-buffered-nosync.stderr.txt", 268435456, 0.140521],
    ["dd-read-direct.stderr.txt", 268435456, 0.107227],
    ["dd-read-buffered.stderr.txt", 268435456, 0.0186973],
    ["dd-write-shm.stderr.txt", 268435456, 0.0870388],
    ["dd-write-shm-direct.stderr.txt", 268435456, 0.0922513],
    ["dd-read-shm.stderr.txt", 268435456, 0.0367332],
    ["dd-read-shm-direct.stderr.txt", 268435456, 0.0220464],
    ["dd-write-direct-loop-ext3.stderr.txt", 134217728, 0.188754],
    ["dd-write-direct-loop-ext4.stderr.txt", 134217728, 0.0780566],
    ["dd-write-direct-loop-xfs.stderr.txt", 134217728, 0.0805106],
    ["dd-read-direct-4g-progress.stderr.txt", 4294967296, 3.65843],
  ])("%s", (name, bytes, seconds) => {
    const m = metrics(fixture("dd", name));
    expect(m).toMatchObject({ bytes, seconds, warnings: [] });
    expect(m.throughput).toBeCloseTo(bytes / seconds, 6);
  });

  it("computes throughput from bytes and seconds, not dd's rounded rate", () => {
    // dd prints "2.2 GB/s"; the exact figure is 2161.45… MB/s
    expect(metrics(fixture("dd", "dd-write-direct.stderr.txt")).throughput).toBeCloseTo(2161455295.03, 1);
  });

  it("takes the summary, not the last progress line, under conv=fdatasync", () => {
    // The progress redraw ends at 1.81803 s; the summary includes the flush: 1.81967 s.
    const m = metrics(fixture("dd", "dd-write-direct-4g-progress.stderr.txt"));
    expect(m.seconds).toBe(1.81967);
    expect(m.bytes).toBe(4294967296);
  });

  it("reads dd run under a pseudo-terminal (\\r\\n, progress glued to the final redraw)", () => {
    expect(metrics(fixture("dd", "gen-dd-pty-write-direct.txt"))).toMatchObject({ bytes: 3145728000, seconds: 1.48025, warnings: [] });
  });

  it("reads every summary form of dd-summary-format-variants.txt", () => {
    const runs = fixture("dd", "dd-summary-format-variants.txt").split(/^\$ .*$/m).slice(1);
    expect(runs.map((r) => [metrics(r).bytes, metrics(r).seconds])).toEqual([
      [512, 2.4076e-5],
      [1000, 1.5383e-5],
      [1024, 2.03e-5],
      [1048576, 0.000417476],
      [20971520000, 0.269488],
    ]);
  });
});

describe("dd in other versions and locales", () => {
  it("reads coreutils 8.4's '(1.0 GB) copied'", () => {
    expect(metrics(fixture("dd", "hand-dd-coreutils-8.4.stderr.txt"))).toMatchObject({ bytes: 1048576000, seconds: 9.53321 });
  });

  it("reads decimal commas (de_DE)", () => {
    const m = metrics(fixture("dd", "hand-dd-de_DE.stderr.txt"));
    expect(m).toMatchObject({ bytes: 268435456, seconds: 1.2 });
    expect(m.throughput).toBeCloseTo(223696213.33, 1);
  });

  it("reads the verb-first Russian form of coreutils 8.2x (\"скопировано\", seconds as \"c\")", () => {
    const text = "2048+0 записей получено\n2048+0 записей отправлено\n скопировано 2147483648 байт (2,1 GB), 4,17328 c, 515 MB/c\n";
    const r = expectOk(parseDd(text));
    expect(metrics(text)).toMatchObject({ bytes: 2147483648, seconds: 4.17328, warnings: [] });
    expect(one(r.measurements, "throughput").value).toBeCloseTo(2147483648 / 4.17328, 3);
    // No installed catalog holds the old Russian wording: named as a translation of another release.
    expect(r.format).toBe("coreutils dd (before 8.24, translated)");
    // The same with the Cyrillic "с" some pastes carry.
    expect(metrics(" скопировано 1048576 байт (1,0 MB), 0,5 с, 2,1 MB/с\n")).toMatchObject({ bytes: 1048576, seconds: 0.5 });
  });

  it("reads coreutils 5.x's 'bytes transferred in … seconds'", () => {
    const text = "20480+0 records in\n20480+0 records out\n10485760 bytes transferred in 0.028418 seconds (368981986 bytes/sec)\n";
    const r = expectOk(parseDd(text));
    expect(metrics(text)).toMatchObject({ bytes: 10485760, seconds: 0.028418, warnings: [] });
    expect(one(r.measurements, "throughput").value).toBeCloseTo(10485760 / 0.028418, 3);
    expect(r.format).toBe("coreutils dd (5.x)");
  });

  it("reads dd's Infinity rate (no time measured) in the catalogs' languages", () => {
    for (const line of ["0 bytes copied, 0 s, Infinity B/s", "0 Bytes kopiert, 0 s, Unendlich B/s", "0 字节已复制，0 s，无穷大 B/s"]) {
      const r = expectOk(parseDd(`0+0 records in\n0+0 records out\n${line}\n`));
      expect(one(r.measurements, "bytes").value).toBe(0);
      expect(one(r.measurements, "seconds").value).toBe(0);
      expect(r.warnings.join()).toMatch(/0 seconds/);
    }
  });

  it("names the language of the catalog whose wording a line has", () => {
    expect(expectOk(parseDd("1048576 octets (1,0 MB, 1,0 MiB) copiés, 0,5 s, 2,1 MB/s\n")).format).toBe("coreutils dd (translated: fr)");
    expect(expectOk(parseDd("скопійовано 1048576 байтів (1,0 MB, 1,0 MiB), 0,5 s, 2,1 MB/s\n")).format).toBe("coreutils dd (translated: uk)");
  });

  it("reads no-break spaces (fr_FR)", () => {
    expect(metrics(fixture("dd", "hand-dd-fr_FR-nbsp.stderr.txt"))).toMatchObject({ bytes: 268435456, seconds: 0.124192 });
  });

  it("reads localised progress lines and the final summary", () => {
    expect(metrics(fixture("dd", "hand-dd-de_DE-progress.stderr.txt"))).toMatchObject({ bytes: 4294967296, seconds: 3.65843 });
  });

  it("reads scientific notation and warns about partial records", () => {
    const m = metrics(fixture("dd", "hand-dd-partial-sci.stderr.txt"));
    expect(m).toMatchObject({ bytes: 1000, seconds: 6.1e-5 });
    expect(m.warnings.join()).toMatch(/partial block/);
  });

  it("reads a bare summary line without records lines or trailing newline", () => {
    expect(metrics("1000 bytes copied, 0,5 s, 2,0 kB/s")).toMatchObject({ bytes: 1000, seconds: 0.5, throughput: 2000 });
  });
});

describe("dd errors", () => {
  it("explains a missing directory", () => {
    expect(expectError(parseDd(fixture("dd", "dd-error-nonexistent.stderr.txt")))).toBe(
      "dd could not open /nonexistent/x: No such file or directory",
    );
  });

  it("tells a dd read of a missing file (output from an older agent or a shell) to write one first", () => {
    const err = expectError(parseDd("dd: failed to open '/srv/t/probebook-dd.tmp': No such file or directory\n"));
    expect(err).toMatch(/needs an existing file: write one first/);
  });

  it("explains EINVAL from unaligned direct I/O, even though dd printed a 0-byte summary", () => {
    const err = expectError(parseDd(fixture("dd", "dd-error-direct-unaligned.stderr.txt")));
    expect(err).toMatch(/^dd failed writing target\/ddfile-odd: Invalid argument \(with direct I\/O the block size must be a multiple/);
  });

  it("says how much was copied before a disk filled up", () => {
    const text = "dd: error writing '/t/x': No space left on device\n100+0 records in\n99+0 records out\n103809024 bytes (104 MB, 99 MiB) copied, 0.5 s, 208 MB/s\n";
    expect(expectError(parseDd(text))).toBe("dd failed writing /t/x: No space left on device; 99.0 MiB had been copied");
  });

  it("passes localised dd errors through", () => {
    expect(expectError(parseDd(fixture("dd", "hand-dd-de_DE-error.stderr.txt")))).toMatch(/^dd failed: '\/nonexistent\/x' kann nicht geöffnet werden/);
  });

  it("asks for stderr when given dd's empty stdout", () => {
    expect(expectError(parseDd(fixture("dd", "dd-write-direct.stdout.txt")))).toMatch(/stderr must be captured/);
  });

  it("reports an interrupted run by its last progress line", () => {
    const text = fixture("dd", "dd-read-direct-4g-progress.stderr.txt").split("\n")[0] ?? "";
    expect(expectError(parseDd(text))).toBe("dd output has no final summary (interrupted?); last progress: 3.2 GiB after 3 s");
  });

  it("rejects other text", () => {
    expect(expectError(parseDd(fixture("sar", "sar-u.txt")))).toMatch(/^not dd output/);
  });
});

describe("dd outside coreutils", () => {
  const read = (name: string) => expectOk(parseDd(fixture("dd", name)));
  it.each([
    ["hand-dd-busybox.stderr.txt", 104857600, 0.036343, "busybox dd"],
    ["hand-dd-busybox-512.stderr.txt", 512, 0.000061, "busybox dd"],
    ["hand-dd-toybox.stderr.txt", 10485760, 0.034, "toybox dd"],
    ["hand-dd-macos.stderr.txt", 1048576000, 9.531306, "BSD/macOS dd"],
    ["hand-dd-netbsd.stderr.txt", 268435456, 1.204, "BSD/macOS dd"],
    ["hand-dd-freebsd-progress.stderr.txt", 4294967296, 3.991502, "BSD/macOS dd"],
  ])("%s: %d bytes in %d s (%s)", (name, bytes, seconds, format) => {
    const r = read(name);
    expect(one(r.measurements, "bytes").value).toBe(bytes);
    expect(one(r.measurements, "seconds").value).toBe(seconds);
    expect(one(r.measurements, "throughput").value).toBeCloseTo(bytes / seconds, 3);
    expect(r.format).toBe(format);
    expect(r.warnings).toEqual([]);
  });

  it("reports busybox's write errors like coreutils'", () => {
    expect(expectError(parseDd(fixture("dd", "hand-dd-busybox-error-enospc.stderr.txt")))).toMatch(
      /^dd failed writing \/scratch\/big: No space left on device; 16\.0 MiB had been copied$/,
    );
  });

  it("follows FreeBSD's status=progress redraws for live progress", () => {
    const text = fixture("dd", "hand-dd-freebsd-progress.stderr.txt");
    const firstRedraw = text.slice(0, text.indexOf("\r") + 1);
    expect(lastTransfer(segments(firstRedraw))).toMatchObject({ bytes: 1073741824, seconds: 1.001, style: "bsd" });
  });
});

describe("coreutils dd in twelve locales (captured with LC_ALL=<locale>.UTF-8, coreutils 9.1)", () => {
  const LOCALES = ["C", "zh_CN", "zh_TW", "ko_KR", "de_DE", "fr_FR", "es_ES", "ru_RU", "pl_PL", "pt_BR", "it_IT", "ja_JP"];
  it.each(LOCALES)("%s: status=progress run and a 1-byte copy", (locale) => {
    const run = expectOk(parseDd(fixture("dd", `gen-dd-${locale}-progress.stderr.txt`)));
    expect(one(run.measurements, "bytes").value).toBe(31457280000);
    expect(one(run.measurements, "seconds").value).toBeGreaterThan(1);
    expect(run.warnings).toEqual([]);
    expect(run.format).toMatch(/^coreutils dd/);
    const tiny = expectOk(parseDd(fixture("dd", `gen-dd-${locale}-1byte.stderr.txt`)));
    expect(one(tiny.measurements, "bytes").value).toBe(1);
  });

  it("names translated output and the pre-8.24 form", () => {
    expect(expectOk(parseDd(fixture("dd", "gen-dd-de_DE-progress.stderr.txt"))).format).toBe("coreutils dd (translated: de)");
    expect(expectOk(parseDd(fixture("dd", "gen-dd-C-progress.stderr.txt"))).format).toBe("coreutils dd");
    expect(expectOk(parseDd(fixture("dd", "hand-dd-coreutils-8.4.stderr.txt"))).format).toBe("coreutils dd (before 8.24)");
  });

  it("warns about partial records also where the records line starts with words (zh_CN)", () => {
    const text = "记录了 3+1 的读入\n记录了 3+1 的写出\n3500 字节 (3.5 kB, 3.4 KiB) 已复制，2.5e-05 s，140 MB/s\n";
    expect(expectOk(parseDd(text)).warnings.join()).toMatch(/1 partial block/);
  });
});
