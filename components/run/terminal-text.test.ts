import { describe, expect, it } from "vitest";
import { fixture } from "@/probes/core/testing";
import { TERMINAL_MAX_ROWS, terminalHeight, terminalWriter } from "./terminal-text";

const writeAll = (pieces: string[]) => {
  const w = terminalWriter();
  return pieces.map(w).join("");
};

describe("terminal text", () => {
  it("breaks dd's last progress line from its summary, whole or cut between pieces", () => {
    const text = "\r1069547520 bytes (1.1 GB, 1020 MiB) copied, 2 s, 481 MB/s1073741824 bytes (1.1 GB, 1.0 GiB) copied, 2.23 s, 481 MB/s\n";
    const expected = "\r1069547520 bytes (1.1 GB, 1020 MiB) copied, 2 s, 481 MB/s\r\n1073741824 bytes (1.1 GB, 1.0 GiB) copied, 2.23 s, 481 MB/s\r\n";
    expect(writeAll([text])).toBe(expected);
    const cut = text.indexOf("MB/s1") + 4;
    expect(writeAll([text.slice(0, cut), text.slice(cut)])).toBe(expected);
    const real = writeAll([fixture("dd", "dd-write-direct-4g-progress.stderr.txt")]);
    expect(real).toContain("2.4 GB/s\r\n4294967296 bytes (4.3 GB, 4.0 GiB) copied, 1.81803 s");
  });

  it("keeps progress redraws on one line and turns lone \\n into \\r\\n, also across pieces", () => {
    expect(writeAll(["\r1 bytes copied, 1 s, 3.2 GB/s\r2 bytes copied, 2 s, 2.9 GB/s"])).toBe("\r1 bytes copied, 1 s, 3.2 GB/s\r2 bytes copied, 2 s, 2.9 GB/s");
    expect(writeAll(["a\r", "\nb\n"])).toBe("a\r\nb\r\n");
  });

  it("writes fio's wrapped ETA as unknown and leaves a real one", () => {
    expect(writeAll(["[r=20.8k IOPS][eta 74565d:09h:42m:21s]\r"])).toBe("[r=20.8k IOPS][eta unknown]\r");
    expect(writeAll(["[eta 00m:02s]\r"])).toBe("[eta 00m:02s]\r");
  });
});

describe("terminal height", () => {
  it("fits a few lines in a small box and stops growing at the maximum", () => {
    expect(terminalHeight(3)).toBeLessThan(100);
    expect(terminalHeight(0)).toBe(terminalHeight(3));
    expect(terminalHeight(10)).toBeGreaterThan(terminalHeight(3));
    expect(terminalHeight(5000)).toBe(terminalHeight(TERMINAL_MAX_ROWS));
  });
});
