import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { placeAddon } from "./native-addon";

const made: string[] = [];
const tmp = () => {
  const d = mkdtempSync(path.join(os.tmpdir(), "pb-native-"));
  made.push(d);
  return d;
};
afterEach(() => {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});

const bytes = (s: string) => new TextEncoder().encode(s);

describe("placeAddon: the executable's embedded addon on disk", () => {
  it("makes a private directory and a read-and-execute file named by the content's hash", () => {
    const dir = path.join(tmp(), "state", "native");
    const file = placeAddon(dir, "pty", bytes("addon v1"));
    expect(path.basename(file)).toMatch(/^pty-[0-9a-f]{16}\.node$/);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(file).mode & 0o777).toBe(0o500);
    expect(readFileSync(file, "utf8")).toBe("addon v1");
    // The same content again: the same file, not rewritten; new content: a file of its own.
    const mtime = statSync(file).mtimeMs;
    expect(placeAddon(dir, "pty", bytes("addon v1"))).toBe(file);
    expect(statSync(file).mtimeMs).toBe(mtime);
    expect(placeAddon(dir, "pty", bytes("addon v2"))).not.toBe(file);
    expect(readdirSync(dir).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });

  it("replaces a file whose bytes are not the embedded ones", () => {
    const dir = path.join(tmp(), "native");
    const file = placeAddon(dir, "pty", bytes("the real addon"));
    chmodSync(file, 0o700);
    writeFileSync(file, "something else");
    expect(placeAddon(dir, "pty", bytes("the real addon"))).toBe(file);
    expect(readFileSync(file, "utf8")).toBe("the real addon");
  });

  it("refuses a directory other users can write or read, and a symlink in its place", () => {
    const open = path.join(tmp(), "native");
    mkdirSync(open, { mode: 0o755 });
    chmodSync(open, 0o755);
    expect(() => placeAddon(open, "pty", bytes("x"))).toThrow(/open to other users \(mode 755\); make it 0700/);
    const link = path.join(tmp(), "link");
    const target = path.join(tmp(), "target");
    mkdirSync(target, { mode: 0o700 });
    symlinkSync(target, link);
    expect(() => placeAddon(link, "pty", bytes("x"))).toThrow(/is not a directory/);
  });
});
