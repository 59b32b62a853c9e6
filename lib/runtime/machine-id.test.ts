import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { machineId } from "./machine-id";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pb-machine-id-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const p = path.join(dir, name);
  fs.writeFileSync(p, text);
  return p;
};

describe("machineId", () => {
  it("is stable for one machine-id, differs between machines, and does not reveal the machine-id", () => {
    const a = file("a", "0123456789abcdef0123456789abcdef\n");
    const b = file("b", "fedcba9876543210fedcba9876543210\n");
    const id = machineId({}, [a]);
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(machineId({}, [a])).toBe(id);
    expect(machineId({}, [b])).not.toBe(id);
    expect(id).not.toContain("0123456789abcdef");
  });

  it("reads dbus's copy when systemd's is missing or not a machine id, and falls back to the host's names without either", () => {
    const good = file("dbus", "0123456789abcdef0123456789abcdef");
    expect(machineId({}, [path.join(dir, "missing"), good])).toBe(machineId({}, [good]));
    expect(machineId({}, [file("empty", "\n"), good])).toBe(machineId({}, [good]));
    const fallback = machineId({}, [path.join(dir, "missing")]);
    expect(fallback).toMatch(/^[0-9a-f]{32}$/);
    expect(machineId({}, [])).toBe(fallback);
    expect(fallback).not.toBe(machineId({}, [good]));
  });

  it("takes PROBEBOOK_MACHINE_ID over the files", () => {
    const a = file("c", "0123456789abcdef0123456789abcdef");
    expect(machineId({ PROBEBOOK_MACHINE_ID: "box-1" }, [a])).toBe(machineId({ PROBEBOOK_MACHINE_ID: "box-1" }, []));
    expect(machineId({ PROBEBOOK_MACHINE_ID: "box-1" }, [a])).not.toBe(machineId({}, [a]));
  });
});
