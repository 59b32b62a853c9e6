import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { AGENT_VERSION } from "../agent/version";
import { capabilitiesSchema } from "../agent/protocol";
import { detectCapabilities, parseToolVersion } from "./capabilities";
import { findOnPath } from "./exec-tool";

// Version outputs live with the probe that owns the tool (not among its parser fixtures).
const fixture = (name: string) => readFileSync(path.join(__dirname, "..", /^version-(sadf|sar)/.test(name) ? "sar" : name.replace(/^version-|\.txt$/g, ""), "version-fixtures", name), "utf8");
const tmp = mkdtempSync(path.join(os.tmpdir(), "probebook-caps-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("parseToolVersion", () => {
  it("reads the captured version outputs", () => {
    expect(parseToolVersion("iozone", fixture("version-iozone.txt"))).toBe("3.489");
    expect(parseToolVersion("dd", fixture("version-dd.txt"))).toBe("9.1");
    expect(parseToolVersion("sar", fixture("version-sar.txt"))).toBe("12.6.1");
    expect(parseToolVersion("sadf", fixture("version-sadf.txt"))).toBe("12.6.1");
    expect(parseToolVersion("fio", fixture("version-fio.txt"))).toBe("3.33");
  });
  it("answers null for unrelated output", () => {
    expect(parseToolVersion("fio", "usage: fio [options]")).toBeNull();
    expect(parseToolVersion("dd", "")).toBeNull();
  });
});

describe("findOnPath", () => {
  it("finds executables only, in PATH order, skipping relative entries", async () => {
    const a = path.join(tmp, "a");
    const b = path.join(tmp, "b");
    mkdirSync(a);
    mkdirSync(b);
    writeFileSync(path.join(a, "tool"), "not executable");
    writeFileSync(path.join(b, "tool"), "#!/bin/sh\n");
    chmodSync(path.join(b, "tool"), 0o755);
    expect(await findOnPath("tool", `relative:${a}::${b}`)).toBe(path.join(b, "tool"));
    expect(await findOnPath("missing", `${a}:${b}`)).toBeNull();
    expect(await findOnPath("a", tmp)).toBeNull(); // a directory is not a command
  });
});

describe("detectCapabilities", () => {
  it("finds the real tools of this host with their versions", async () => {
    const caps = await detectCapabilities([tmp]);
    expect(capabilitiesSchema.parse(caps)).toEqual(caps);
    expect(caps.agentVersion).toBe(AGENT_VERSION);
    expect(Object.keys(caps.tools).sort()).toEqual(["dd", "fio", "iozone", "sadf", "sar"]);
    expect(caps.tools.dd).toMatchObject({ installed: true, path: expect.stringMatching(/\/dd$/) });
    expect(caps.tools.dd?.version).toMatch(/^\d+\.\d+/);
    for (const tool of Object.values(caps.tools)) {
      if (tool.installed) expect(tool.version).toMatch(/^\d+(\.\d+)+$/);
    }
    expect(caps.allowedDirs).toEqual([tmp]);
  });

  it("reports tools as missing on an empty PATH", async () => {
    const caps = await detectCapabilities([], path.join(tmp, "empty"));
    for (const tool of Object.values(caps.tools)) expect(tool).toEqual({ installed: false, version: null, path: null });
  });
});
