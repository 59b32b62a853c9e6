import { describe, expect, it } from "vitest";
import { collapseCollectedFiles, frameCollectedFile, splitCollectedFiles } from "./collected-files";
import { fixture } from "./testing";

const LOG = fixture("fio", "live/live-3.33-randrw-psync.log");

function streamed(text: string, size: number): string {
  const collapse = collapseCollectedFiles();
  let out = "";
  for (let i = 0; i < text.length; i += size) out += collapse(text.slice(i, i + size));
  return out;
}

describe("files appended to a run's output", () => {
  it("frame and split back, whatever the file's line ends", () => {
    const framed = "out\r\n" + frameCollectedFile("a.log", "1\n2", 3, 3) + frameCollectedFile("b.log", "", 0, 0);
    expect(framed).toContain("[probebook file a.log, 3 bytes]\r\n1\r\n2\r\n[probebook end a.log]\r\n");
    expect(splitCollectedFiles(framed)).toEqual({
      output: "out\r\n",
      files: [
        { name: "a.log", content: "1\n2", truncated: false },
        { name: "b.log", content: "", truncated: false },
      ],
    });
  });

  it("collapse in a terminal to one line per file, however the stream is cut", () => {
    const whole = streamed(LOG, LOG.length);
    expect(whole).toContain("[probebook file probebook_bw.1.log, 164 bytes: kept in the run's log for the parser, not shown here]\r\n");
    expect(whole).not.toMatch(/^\d+, \d+, [01], 0, 0/m);
    expect(whole.startsWith(LOG.slice(0, LOG.indexOf("[probebook file")))).toBe(true);
    for (const size of [1, 7, 100, 4096]) expect(streamed(LOG, size)).toBe(whole);
  });

  it("pass fio's progress lines at once, without waiting for a line end", () => {
    const collapse = collapseCollectedFiles();
    const eta = "Jobs: 1 (f=1): [m(1)][50.0%][r=10.8MiB/s][eta 00m:03s]\r";
    expect(collapse(eta)).toBe(eta);
    expect(collapse("[prob")).toBe("");
    expect(collapse("lem]\r\n")).toBe("[problem]\r\n");
  });
});
