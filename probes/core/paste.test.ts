import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { normalisePaste, runsAtCommands, toolCommand } from "./paste";

describe("normalisePaste", () => {
  it("takes prompts off command lines and recognises the tools' commands behind time and sudo", () => {
    const p = normalisePaste(
      [
        "user@host:~$ time dd if=/dev/zero of=x bs=1M count=8",
        "[root@h ~]# sudo sar -d 1 3",
        "probe@lab:~/scratch$ cd /tmp",
        "$ fio --name=a --rw=read",
        "# iozone -a -n 64m",
        "bash-5.2$ sudo -E time -p sadf -d -- -u",
      ].join("\n"),
    );
    expect(p.lines.map((l) => [l.kind, l.command?.tool, l.command?.text])).toEqual([
      ["command", "dd", "dd if=/dev/zero of=x bs=1M count=8"],
      ["command", "sar", "sar -d 1 3"],
      ["command", null, "cd /tmp"],
      ["command", "fio", "fio --name=a --rw=read"],
      ["command", "iozone", "iozone -a -n 64m"],
      ["command", "sadf", "sadf -d -- -u"],
    ]);
    expect(p.text).toBe("");
  });

  it("leaves sadf -d's '# hostname;…' header and sentences about dd as output", () => {
    const p = normalisePaste("# hostname;interval;timestamp;CPU;%user\ndd was slow on that box\n");
    expect(p.lines.map((l) => l.kind)).toEqual(["output", "output", "output"]);
    expect(toolCommand("dd was slow")).toBeNull();
    expect(toolCommand("/bin/dd if=a of=b")).toEqual({ tool: "dd", text: "dd if=a of=b" });
  });

  it("reads bash's, time -p's, zsh's and GNU time's reports as time lines with the wall-clock seconds", () => {
    const p = normalisePaste(
      [
        "real\t1m2.500s",
        "user\t0m0.000s",
        "sys\t0m0.074s",
        "real 0.48",
        "dd if=a of=b bs=4M  0.00s user 0.25s system 53% cpu 0.479 total",
        "0.00user 0.07system 0:00.18elapsed 39%CPU (0avgtext+0avgdata 2048maxresident)k",
        "0inputs+131072outputs (0major+92minor)pagefaults 0swaps",
      ].join("\n"),
    );
    expect(p.lines.map((l) => l.kind)).toEqual(Array(7).fill("time"));
    expect(p.lines.map((l) => l.time?.realSeconds)).toEqual([62.5, null, null, 0.48, 0.479, 0.18, null]);
    expect(p.lines[4]!.command).toEqual({ tool: "dd", text: "dd if=a of=b bs=4M" });
  });

  it("strips colour, bracketed-paste modes, CRLF and what \\r overwrote", () => {
    const p = normalisePaste("\u001b[?2004h\u001b[32mme@lab\u001b[0m:~$ dd if=a of=b\r\n\u001b[?2004l\r8+0 records in\r\n1 s\r2 s\r3 s\r\n");
    expect(p.lines.map((l) => [l.kind, l.text, l.overwritten])).toEqual([
      ["command", "me@lab:~$ dd if=a of=b", false],
      ["output", "8+0 records in", false],
      ["output", "3 s", true],
      ["output", "", false],
    ]);
  });

  it("takes off mail quoting only when the paste is quoted as a whole", () => {
    expect(normalisePaste("> > 1+0 records in\r\n> 1+0 records out\r\n>\r\n").text).toBe("1+0 records in\n1+0 records out\n\n");
    expect(normalisePaste("a\nb\nc\nd\ne\n> f").text).toBe("a\nb\nc\nd\ne\n> f");
  });

  it("cuts a session into runs at a tool's command lines, other commands ending a run", () => {
    const p = normalisePaste("$ fio --name=a\nA\n$ ls\nfiles\n$ fio --name=b\nB\nreal 1.5\n");
    const runs = runsAtCommands(p, ["fio"]);
    expect(runs.map((r) => [r.command?.text, r.lines.filter((l) => l.kind === "output").map((l) => l.text).join("|"), r.realSeconds])).toEqual([
      ["fio --name=a", "A", null],
      ["fio --name=b", "B|", 1.5],
    ]);
  });

  it("never throws, and keeps every line's source index", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 300 }), (s) => {
        const p = normalisePaste(s);
        expect(p.lines.length).toBe(s.split("\n").length);
        p.lines.forEach((l, i) => expect(l.source).toBe(i));
      }),
      { numRuns: 300 },
    );
    expect(normalisePaste(undefined as unknown as string).lines).toHaveLength(1);
  });
});
