import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { splitCollectedFiles } from "../core/collected-files";
import { appendCollectedFiles } from "./collect-files";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function runDir(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), "pb-collect-"));
  dirs.push(d);
  return d;
}

const spec = (cwd: string, collect?: RegExp) => ({ file: "true", args: [], env: {}, cwd, timeoutSec: 5, collect });

describe("appending a command's files to its output", () => {
  it("appends the matching regular files in name order, framed, and the parser gets them back", async () => {
    const dir = runDir();
    fs.writeFileSync(path.join(dir, "t_iops.1.log"), "1000, 5, 0, 0, 0\n2000, 6, 0, 0, 0\n");
    fs.writeFileSync(path.join(dir, "t_bw.1.log"), "1000, 20, 0, 0, 0\n");
    fs.writeFileSync(path.join(dir, "data.tmp"), "not ours");
    fs.writeFileSync(path.join(dir, "secret"), "elsewhere");
    fs.symlinkSync(path.join(dir, "secret"), path.join(dir, "t_lat.1.log"));
    fs.mkdirSync(path.join(dir, "t_dir.1.log"));
    let out = "tool output\r\n";
    const sent = await appendCollectedFiles(spec(dir, /^t_\w+\.1\.log$/), (t) => (out += t));
    // A link is not followed and a directory is not a file.
    expect(sent).toEqual(["t_bw.1.log", "t_iops.1.log"]);
    expect(out).toContain("\r\n1000, 5, 0, 0, 0\r\n2000, 6, 0, 0, 0\r\n");
    const split = splitCollectedFiles(out);
    expect(split.output).toBe("tool output\r\n");
    expect(split.files).toEqual([
      // Lines as written; whether the file ended with a line end is not kept.
      { name: "t_bw.1.log", content: "1000, 20, 0, 0, 0", truncated: false },
      { name: "t_iops.1.log", content: "1000, 5, 0, 0, 0\n2000, 6, 0, 0, 0", truncated: false },
    ]);
  });

  it("cuts a file at the cap and says so in its frame", async () => {
    const dir = runDir();
    fs.writeFileSync(path.join(dir, "big.log"), "x".repeat(100) + "\n");
    let out = "";
    await appendCollectedFiles(spec(dir, /\.log$/), (t) => (out += t), 10);
    expect(out).toContain("[probebook file big.log, first 10 of 101 bytes]");
    expect(splitCollectedFiles(out).files).toEqual([{ name: "big.log", content: "xxxxxxxxxx", truncated: true }]);
  });

  it("appends nothing for a command without files to collect, or a directory already gone", async () => {
    let out = "";
    expect(await appendCollectedFiles(spec(runDir()), (t) => (out += t))).toEqual([]);
    expect(await appendCollectedFiles(spec("/nonexistent/pb", /x/), (t) => (out += t))).toEqual([]);
    expect(out).toBe("");
  });
});
