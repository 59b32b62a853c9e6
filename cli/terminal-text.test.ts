import { describe, expect, it } from "vitest";
import { jsonLine, terminalText, TerminalStream } from "./terminal-text";

const OSC52 = "\x1b]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==\x07";
const OSC0 = "\x1b]0;pwned title\x07";
const CLEAR = "\x1b[2J\x1b[H";
/* eslint-disable no-control-regex -- the point of these tests */
// Nothing that starts a sequence or is a control: ESC, CSI (8-bit), BEL, DEL, C1, a bare CR.
const INERT = /^[^\x00-\x08\x0b-\x1f\x7f-\x9f]*$/;

describe("terminalText: what the CLI prints of server or agent text", () => {
  it("removes OSC 52 (clipboard), OSC 0 (title), CSI (clear screen, cursor moves) and keeps the words", () => {
    const out = terminalText(`dd: error${OSC52} writing${OSC0} file${CLEAR}\n  next line\tcol`);
    expect(out).toBe("dd: error writing file\n  next line\tcol");
    expect(out).toMatch(INERT);
  });

  it("removes OSC ended by ST, DCS, APC, PM, SOS, two-character escapes, 8-bit CSI/OSC, and unterminated strings", () => {
    const cases = [
      "\x1b]8;;http://evil\x1b\\link\x1b]8;;\x1b\\",
      "\x1bP+q544e\x1b\\",
      "\x1b_apc\x1b\\",
      "\x1b^pm\x07",
      "\x1bXsos\x1b\\",
      "\x1bc\x1b7\x1b8\x1b=",
      "\x9b2J\x9d0;title\x9c",
      "text \x1b]52;c;AAAA",
      "\x1b[?1049h\x1b[31mred\x1b[0m",
      "a\x00b\x08c\x7fd\x85e\x07f",
    ];
    for (const c of cases) expect(terminalText(c), JSON.stringify(c)).toMatch(INERT);
    expect(terminalText("\x1b]8;;http://evil\x1b\\link\x1b]8;;\x1b\\")).toBe("link");
    expect(terminalText("\x1b[?1049h\x1b[31mred\x1b[0m")).toBe("red");
    expect(terminalText("text \x1b]52;c;AAAA")).toBe("text ");
  });

  it("turns a bare carriage return into a newline (nothing printed can be overwritten), keeps \\r\\n as \\n", () => {
    expect(terminalText("real error\rfake: all good")).toBe("real error\nfake: all good");
    expect(terminalText("a\r\nb")).toBe("a\nb");
  });

  it("one line for table cells and names: newlines and tabs become spaces", () => {
    expect(terminalText("host\nFAKE ROW\tx", { oneLine: true })).toBe("host FAKE ROW x");
  });

  it("removes bidirectional overrides that reorder what is shown", () => {
    expect(terminalText("abc\u202edcb\u202c")).toBe("abcdcb");
  });

  it("keeps ordinary Unicode", () => {
    expect(terminalText("4.2 MB, 4.0 MiB — ok ✓ äöü 日本")).toBe("4.2 MB, 4.0 MiB — ok ✓ äöü 日本");
  });
});

describe("TerminalStream: output in chunks", () => {
  it("a sequence split across chunks is removed whole, its second half not printed as text", () => {
    const s = new TerminalStream();
    const out = [s.push("before \x1b]0;ti"), s.push("tle\x07 after \x1b["), s.push("2J end\r"), s.push("\nlast"), s.end()].join("");
    expect(out).toBe("before  after  end\nlast");
  });

  it("an unterminated sequence at the end prints nothing; a last \\r prints as a newline", () => {
    const s = new TerminalStream();
    expect(s.push("ok \x1b]52;c;QUJD") + s.end()).toBe("ok ");
    const t = new TerminalStream();
    expect(t.push("progress\r") + t.end()).toBe("progress\n");
  });
});

describe("jsonLine", () => {
  it("escapes C1 and DEL, which JSON.stringify leaves raw, and stays the same JSON", () => {
    const value = { error: "a\x1b]0;t\x07b\x9b2Jc\x7f" };
    const line = jsonLine(value);
    expect(line).toMatch(/^[^\x00-\x08\x0b-\x1f\x7f-\x9f]*\n$/);
    expect(JSON.parse(line)).toEqual(value);
  });
});
