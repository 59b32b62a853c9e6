// Several dd runs in one paste (probes/paste.ts with splitDdRuns): shell sessions captured here
// with `script` (prompts, colour, bracketed-paste modes, CRLF), a mail reply quoting one, zsh's
// time report, and notes files with one summary per line or per records block.
import { describe, expect, it } from "vitest";
import { parsePaste } from "../paste";
import { expectOk, fixture, one } from "../core/testing";
import { parseDd } from "./parse";

function runs(name: string) {
  const outcome = parsePaste("dd", fixture("dd", name));
  const result = expectOk(outcome);
  return { result, runs: outcome.runs, figures: outcome.runs.map((r) => ({ bytes: one(result.measurements, "bytes", { run: r.run, ...(r.command ? { command: r.command } : {}) }).value, seconds: one(result.measurements, "seconds", { run: r.run, ...(r.command ? { command: r.command } : {}) }).value })) };
}

describe("several dd runs in one paste", () => {
  it("a bash session with two `time dd …` runs (script capture: prompts, colour, CRLF) is two runs with their commands and times", () => {
    const { figures, runs: found, result } = runs("paste-bash-time-session.txt");
    expect(figures).toEqual([
      { bytes: 67108864, seconds: 0.179999 },
      { bytes: 67108864, seconds: 0.0110644 },
    ]);
    expect(found.map((r) => [r.command, r.realSeconds])).toEqual([
      ["dd if=/dev/zero of=/tmp/pastefx/a.bin bs=1M count=64 conv=fdatasync", 0.188],
      ["dd if=/tmp/pastefx/a.bin of=/dev/null bs=1M", 0.012],
    ]);
    expect(result.format).toBe("coreutils dd");
    // Each run's own text is cut from the paste as it was and reads back as that one run alone.
    for (const [i, r] of found.entries()) {
      expect(r.output).toContain("probe@lab");
      const alone = parsePaste("dd", r.output);
      expect(alone.runs).toHaveLength(1);
      expect(one(expectOk(alone).measurements, "seconds").value).toBe(figures[i]!.seconds);
    }
  });

  it("status=progress redraws are no runs of their own", () => {
    const { figures, runs: found } = runs("paste-bash-progress-session.txt");
    expect(figures).toEqual([
      { bytes: 1572864000, seconds: 6.32717 },
      { bytes: 1572864000, seconds: 0.469731 },
    ]);
    expect(found.map((r) => r.realSeconds)).toEqual([6.332, 0.479]);
  });

  it("the same session quoted in a mail reply with Windows line ends", () => {
    const { figures, runs: found } = runs("paste-mail-quoted-crlf.txt");
    expect(figures).toEqual([
      { bytes: 67108864, seconds: 0.179999 },
      { bytes: 67108864, seconds: 0.0110644 },
    ]);
    expect(found.map((r) => r.command)).toEqual(["dd if=/dev/zero of=/tmp/pastefx/a.bin bs=1M count=64 conv=fdatasync", "dd if=/tmp/pastefx/a.bin of=/dev/null bs=1M"]);
  });

  it("zsh's time report after each run gives its wall-clock time", () => {
    const { figures, runs: found } = runs("paste-zsh-time.txt");
    expect(figures.map((f) => f.seconds)).toEqual([6.32717, 0.469731]);
    expect(found.map((r) => [r.command, r.realSeconds])).toEqual([
      ["dd if=/dev/zero of=/tmp/pastefx/b.bin bs=1M count=1500", 6.332],
      ["dd if=/tmp/pastefx/b.bin of=/dev/null bs=4M", 0.479],
    ]);
  });

  it("notes with one summary per line, and with one records block per run", () => {
    expect(runs("paste-notes-one-per-line.txt").figures).toEqual([
      { bytes: 67108864, seconds: 0.179999 },
      { bytes: 67108864, seconds: 0.0110644 },
      { bytes: 1572864000, seconds: 6.32717 },
    ]);
    expect(runs("paste-notes-records-blocks.txt").figures).toEqual([
      { bytes: 1073741824, seconds: 0.0486635 },
      { bytes: 1073741824, seconds: 0.0489266 },
    ]);
  });

  it("the five prompted runs of dd-summary-format-variants.txt", () => {
    expect(runs("dd-summary-format-variants.txt").figures.map((f) => f.bytes)).toEqual([512, 1000, 1024, 1048576, 20971520000]);
  });

  it("a single run parses exactly as the parser alone", () => {
    for (const name of ["dd-write-direct-4g-progress.stderr.txt", "gen-dd-pty-write-direct.txt", "gen-dd-de_DE-progress.stderr.txt", "hand-dd-macos.stderr.txt"]) {
      const text = fixture("dd", name);
      const pasted = parsePaste("dd", text);
      expect(pasted.runs, name).toHaveLength(1);
      expect({ ok: pasted.ok, ...(pasted.ok ? { result: pasted.result } : {}) }).toEqual(parseDd(text));
    }
  });

  it("a single run behind mail quoting is read once its quoting is off; a failed run between two is in neither", () => {
    const quoted = "> $ dd if=/dev/zero of=/dev/null bs=1M count=1\n> 1+0 records in\n> 1+0 records out\n> 1048576 bytes (1.0 MB, 1.0 MiB) copied, 0.000417476 s, 2.5 GB/s\n";
    expect(one(expectOk(parsePaste("dd", quoted)).measurements, "bytes").value).toBe(1048576);
    const session = [
      "$ dd if=/dev/zero of=/dev/null bs=1M count=1",
      "1+0 records in",
      "1+0 records out",
      "1048576 bytes (1.0 MB, 1.0 MiB) copied, 0.000417476 s, 2.5 GB/s",
      "$ dd if=/nope of=/dev/null",
      "dd: failed to open '/nope': No such file or directory",
      "$ dd if=/dev/zero of=/dev/null bs=1M count=2",
      "2+0 records in",
      "2+0 records out",
      "2097152 bytes (2.1 MB, 2.0 MiB) copied, 0.000517 s, 4.1 GB/s",
    ].join("\n");
    const outcome = parsePaste("dd", session);
    expect(outcome.runs.map((r) => r.command)).toEqual(["dd if=/dev/zero of=/dev/null bs=1M count=1", "dd if=/dev/zero of=/dev/null bs=1M count=2"]);
    expect(one(expectOk(outcome).measurements, "bytes", { run: 2, command: "dd if=/dev/zero of=/dev/null bs=1M count=2" }).value).toBe(2097152);
  });

  it("foreign text is still 'not dd output'", () => {
    const outcome = parsePaste("dd", "$ ls\nfoo bar\n$ echo hi\nhi\n");
    expect(outcome.ok).toBe(false);
    expect(outcome.ok ? "" : outcome.error).toMatch(/^not dd output/);
  });
});
