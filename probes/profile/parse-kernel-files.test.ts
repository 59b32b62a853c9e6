import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseBracketedChoice, parseDirtyableBytes, parseMeminfoBytes, parseMemTotalBytes, parseOsReleasePrettyName, parseVmstatPagesBytes } from "./parse-kernel-files";

const fixture = (name: string) => readFileSync(path.join(__dirname, "fixtures", name), "utf8");

describe("parseMemTotalBytes", () => {
  it("agrees with free -b on the captured machine (25276502016 bytes)", () => {
    expect(parseMemTotalBytes(fixture("sysinfo-meminfo-full.txt"))).toBe(25276502016);
  });
  it("answers null without MemTotal", () => {
    expect(parseMemTotalBytes("MemFree: 1 kB\n")).toBeNull();
    expect(parseMemTotalBytes("")).toBeNull();
  });
});

describe("parseBracketedChoice", () => {
  it("reads the active THP settings", () => {
    expect(parseBracketedChoice(fixture("sysinfo-thp-enabled.txt"))).toBe("madvise");
    expect(parseBracketedChoice(fixture("sysinfo-thp-defrag.txt"))).toBe("madvise");
  });

  it("reads the active I/O scheduler of each captured device", () => {
    const lines = fixture("sysinfo-blockdev.txt")
      .split("\n")
      .filter((l) => l.includes("/queue/scheduler:"));
    const active = Object.fromEntries(
      lines.map((l) => [l.split("/")[3], parseBracketedChoice(l.slice(l.indexOf(":") + 1))]),
    );
    expect(active.vda).toBe("mq-deadline");
    expect(active.loop0).toBe("none");
    expect(Object.keys(active)).toHaveLength(9);
  });

  it("takes a lone word and refuses ambiguous text", () => {
    expect(parseBracketedChoice("none\n")).toBe("none");
    expect(parseBracketedChoice("always never")).toBeNull();
    expect(parseBracketedChoice("")).toBeNull();
  });
});

describe("parseOsReleasePrettyName", () => {
  it("reads the captured Debian 12 os-release", () => {
    expect(parseOsReleasePrettyName(fixture("os-release.txt"))).toBe("Debian GNU/Linux 12 (bookworm)");
  });
  it("handles single quotes, escapes and bare values", () => {
    expect(parseOsReleasePrettyName("PRETTY_NAME='Alpine Linux v3.20'")).toBe("Alpine Linux v3.20");
    expect(parseOsReleasePrettyName('PRETTY_NAME="A \\"quoted\\" name"')).toBe('A "quoted" name');
    expect(parseOsReleasePrettyName("PRETTY_NAME=Arch")).toBe("Arch");
    expect(parseOsReleasePrettyName("NAME=x\n")).toBeNull();
    expect(parseOsReleasePrettyName('PRETTY_NAME=""')).toBeNull();
  });
});

describe("dirty memory facts", () => {
  const meminfo = "MemTotal:       24684084 kB\nMemFree:        18185792 kB\nActive(file):    3189372 kB\nInactive(file):  1958396 kB\n";
  it("adds free and file pages and reads the kernel's thresholds", () => {
    expect(parseDirtyableBytes(meminfo)).toBe((18185792 + 3189372 + 1958396) * 1024);
    expect(parseDirtyableBytes("MemTotal: 1 kB\n")).toBeNull();
    expect(parseMeminfoBytes("Node 1 MemFree:  4096 kB\n", "MemFree")).toBe(4096 * 1024);
    expect(parseVmstatPagesBytes("nr_dirty 3\nnr_dirty_threshold 1158542\nnr_dirty_background_threshold 578563\n", "nr_dirty_threshold")).toBe(1158542 * 4096);
    expect(parseVmstatPagesBytes("nr_dirty 3\n", "nr_dirty_background_threshold")).toBeNull();
  });
});
