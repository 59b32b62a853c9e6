import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";
import { createLogger } from "./logger";

describe("the agent's log", () => {
  it("stays one plain line per event in text, the default", () => {
    const lines: string[] = [];
    const log = createLogger({ write: (l) => lines.push(l) });
    log.info("registered as host\n  web-1");
    log.warn("server away");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^\d{4}-\d\d-\d\dT\S+Z info registered as host web-1\n$/);
    expect(lines[1]).toMatch(/ warn server away\n$/);
  });

  it("writes one pino JSON object per line with LOG_FORMAT=json", () => {
    const lines: string[] = [];
    const log = createLogger({ write: (l) => lines.push(l), settings: { format: "json", level: "info" } });
    log.info("claimed run 1");
    log.error('a "quoted"\nmessage');
    const parsed = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(parsed).toEqual([
      expect.objectContaining({ level: "info", msg: "claimed run 1", pid: process.pid }),
      expect.objectContaining({ level: "error", msg: 'a "quoted"\nmessage' }),
    ]);
    expect(new Date(parsed[0]!.time as string).getTime()).toBeGreaterThan(Date.now() - 60_000);
  });

  it("drops what is below LOG_LEVEL, and info under --quiet, in both formats", () => {
    for (const format of ["text", "json"] as const) {
      const lines: string[] = [];
      createLogger({ write: (l) => lines.push(l), settings: { format, level: "warn" } }).info("dropped");
      createLogger({ write: (l) => lines.push(l), quiet: true, settings: { format, level: "info" } }).info("dropped too");
      const err = createLogger({ write: (l) => lines.push(l), quiet: true, settings: { format, level: "error" } });
      err.warn("dropped as well");
      err.error("kept");
      expect(lines, format).toHaveLength(1);
      expect(lines[0]).toContain("kept");
    }
  });

  it("bundles into one file (no pino transport) and logs JSON from there", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pb-logger-bundle-"));
    try {
      const entry = path.join(dir, "entry.ts");
      fs.writeFileSync(entry, `import { createLogger } from ${JSON.stringify(path.join(__dirname, "logger.ts"))};\ncreateLogger({ settings: { format: "json", level: "info" } }).warn("from the bundle");\n`);
      const out = path.join(dir, "bundle.cjs");
      await build({ entryPoints: [entry], bundle: true, platform: "node", format: "cjs", target: "node20", outfile: out, logLevel: "silent" });
      const run = spawnSync(process.execPath, [out], { encoding: "utf8" });
      expect(run.status).toBe(0);
      expect(run.stdout).toBe("");
      expect(JSON.parse(run.stderr.trim())).toMatchObject({ level: "warn", msg: "from the bundle" });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
