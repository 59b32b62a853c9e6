import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { version } from "../package.json";
import { getCliBundle } from "../lib/server/cli-download/get-cli-bundle";
import { buildCli } from "./build-cli";

const dir = mkdtempSync(path.join(os.tmpdir(), "probebook-cli-bundle-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The bundle run as someone without the checkout would: plain node, cwd and HOME a temp dir, no NODE_PATH. */
function run(file: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: dir } as unknown as NodeJS.ProcessEnv;
  return new Promise((resolve) => {
    execFile(process.execPath, [file, ...args], { cwd: dir, env, timeout: 30_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? Number((err as { code?: unknown }).code) : 0, stdout, stderr });
    });
  });
}

describe("npm run build:cli", () => {
  it("makes one file that runs with plain Node outside the checkout", async () => {
    const file = path.join(dir, "probebook.cjs");
    await buildCli(file);
    expect(readFileSync(file, "utf8").startsWith("#!/usr/bin/env node\n")).toBe(true);
    expect(statSync(file).mode & 0o111).not.toBe(0);
    expect(await run(file, ["--version"])).toMatchObject({ code: 0, stdout: `probebook ${version}\n` });
    const help = await run(file, ["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("probebook login");
    expect(help.stdout).toContain("fio     seq-write");
    // The catalog and zod are inside: a mistyped parameter is still refused before anything is sent.
    const bad = await run(file, ["run", "--server", "http://127.0.0.1:9", "--host", "h", "--preset", "dd:write-direct", "--param", "sizemib=8"]);
    expect(bad.stderr).toMatch(/unknown parameter sizemib \(did you mean sizeMiB\?\)/);
    expect(bad.code).toBe(2);
    const noToken = await run(file, ["runs", "list", "--server", "http://127.0.0.1:9"]);
    expect(noToken).toMatchObject({ code: 2, stderr: expect.stringMatching(/No API token for http:\/\/127\.0\.0\.1:9: run `probebook login/) });
  }, 120_000);

  it("is served with its checksum, or refused naming the build when there is none", async () => {
    const file = path.join(dir, "served.cjs");
    await buildCli(file);
    const { text, sha256 } = await getCliBundle(file);
    expect(text).toBe(readFileSync(file, "utf8"));
    expect(sha256).toMatch(/^[0-9a-f]{64}$/);
    await expect(getCliBundle(path.join(dir, "missing.cjs"))).rejects.toMatchObject({ code: "NOT_FOUND", message: expect.stringContaining("npm run build:cli") });
  }, 120_000);
});
