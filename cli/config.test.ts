import { execFile } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { version } from "../package.json";
import { presetRefs } from "../probes/catalog";
import { connection } from "./client";
import { configPath, readConfig, saveLogin } from "./config";
import { EXIT } from "./exit-codes";

const home = mkdtempSync(path.join(os.tmpdir(), "probebook-cli-config-"));
afterAll(() => rmSync(home, { recursive: true, force: true }));
const root = path.resolve(__dirname, "..");

/** The CLI as a user runs it, with a config home of its own and no connection variables. */
function cli(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("PROBEBOOK_"))) as NodeJS.ProcessEnv;
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(root, "bin", "probebook.cjs"), ...args], { env: { ...base, XDG_CONFIG_HOME: path.join(home, "none"), ...env }, timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? Number((err as { code?: unknown }).code) : 0, stdout, stderr });
    });
  });
}

describe("the config file", () => {
  it("is written 0600 in a 0700 directory under XDG_CONFIG_HOME, one token per server", () => {
    const env = { XDG_CONFIG_HOME: path.join(home, "xdg") };
    const file = saveLogin("http://a.example:3000", "pbt_a", env);
    saveLogin("http://b.example", "pbt_b", env);
    expect(file).toBe(path.join(home, "xdg", "probebook", "config.json"));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    expect(readConfig(env)).toEqual({ server: "http://b.example", tokens: { "http://a.example:3000": "pbt_a", "http://b.example": "pbt_b" } });
    expect(configPath({ HOME: "/home/u" })).toBe("/home/u/.config/probebook/config.json");
  });

  it("gives flags over variables over the file, and sends a saved token only to its own server", () => {
    const env = { XDG_CONFIG_HOME: path.join(home, "prec") };
    saveLogin("http://saved.example", "pbt_saved", env);
    expect(connection({}, env)).toEqual({ server: "http://saved.example", token: "pbt_saved" });
    expect(connection({}, { ...env, PROBEBOOK_TOKEN: "pbt_env" })).toEqual({ server: "http://saved.example", token: "pbt_env" });
    expect(connection({}, { ...env, PROBEBOOK_SERVER: "http://env.example", PROBEBOOK_TOKEN: "pbt_env" })).toEqual({ server: "http://env.example", token: "pbt_env" });
    // Another server: the saved token stays home, and the message says how to get one.
    const err = (() => {
      try {
        connection({ server: "http://other.example" }, env);
      } catch (e) {
        return e as Error & { exitCode: number };
      }
    })();
    expect(err?.exitCode).toBe(EXIT.USAGE);
    expect(err?.message).toMatch(/probebook login --server http:\/\/other\.example.*PROBEBOOK_TOKEN/s);
    expect(err?.message).not.toContain("--token");
  });

  it("is refused when others may read it, naming the chmod that fixes it", () => {
    const env = { XDG_CONFIG_HOME: path.join(home, "open") };
    const file = saveLogin("http://x.example", "pbt_x", env);
    chmodSync(file, 0o644);
    expect(() => connection({}, env)).toThrow(/chmod 600/);
    // Flags and variables alone do not need the file.
    expect(connection({}, { ...env, PROBEBOOK_SERVER: "http://x.example", PROBEBOOK_TOKEN: "pbt_y" }).token).toBe("pbt_y");
    writeFileSync(file, "{not json", { mode: 0o600 });
    chmodSync(file, 0o600);
    expect(() => readConfig(env)).toThrow(/not JSON/);
  });
});

describe("the command line", () => {
  it("prints its version", async () => {
    const r = await cli(["--version"]);
    expect(r).toMatchObject({ code: 0, stdout: `probebook ${version}\n` });
  });

  it("names only presets that exist, in every help text", async () => {
    const r = await cli(["--help"]);
    expect(r.code).toBe(0);
    const named = [...r.stdout.matchAll(/\b(iozone|dd|sar|fio|fsmeta):([a-z0-9][a-z0-9-]*)/g)].map((m) => m[0]);
    expect(named.length).toBeGreaterThan(0);
    expect(named.filter((ref) => !presetRefs().includes(ref))).toEqual([]);
    // run's list of presets ("  fio     seq-write, …" and its continuation lines) is the catalog's.
    const block = /Presets \(probe, then its presets\):\n((?: {2}.*\n)+)/.exec(r.stdout)![1]!;
    let probe = "";
    const listed = block.split("\n").filter(Boolean).flatMap((line) => {
      const m = /^ {2}(\S+) +(.*)$/.exec(line);
      if (m) probe = m[1]!;
      return (m ? m[2]! : line).split(",").map((p) => p.trim()).filter(Boolean).map((p) => `${probe}:${p}`);
    });
    expect(listed).toEqual(presetRefs());
    expect(r.stdout).not.toMatch(/--token [A-Z]/);
  });

  it("refuses a mistyped --param with exit 2, the close match and the valid names, before sending anything", async () => {
    const r = await cli(["run", "--host", "h", "--preset", "dd:write-direct", "--param", "sizemib=8"], { PROBEBOOK_SERVER: "http://127.0.0.1:9", PROBEBOOK_TOKEN: "pbt_x" });
    expect(r.code).toBe(EXIT.USAGE);
    expect(r.stderr).toMatch(/unknown parameter sizemib \(did you mean sizeMiB\?\); valid: target, sizeMiB, /);
  });

  it("tells how to log in when nothing names a server or token", async () => {
    const r = await cli(["runs", "list"]);
    expect(r.code).toBe(EXIT.USAGE);
    expect(r.stderr).toMatch(/probebook login --server URL/);
    expect(r.stderr).not.toContain("--token");
  });
});
