// npm test's pre-check on this machine, with the programs it needs really absent: PATH is a
// directory holding only node, npm and sh (npm runs scripts with it), so chromium, dd, sar, sadf,
// fio and iozone cannot be found.
import { spawnSync } from "node:child_process";
import { mkdtempSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findOnPath } from "../probes/profile/exec-tool";
import { distroFamily, installCommand, PROBE_TOOLS, readOsRelease, type SystemTool } from "../probes/profile/install-commands";

const root = path.resolve(__dirname, "..");
const tsxCli = path.join(root, "node_modules", "tsx", "dist", "cli.mjs");
const isRoot = process.getuid?.() === 0;
// The browser, every probe binary in catalog order (iozone, dd, sar, sadf, fio), then shellcheck.
const ALWAYS_NEEDED: SystemTool[] = ["chromium", ...PROBE_TOOLS, "shellcheck"];
const ROOT_NEEDED: SystemTool[] = ["mkfs.ext4", "mkfs.xfs", "losetup", "mount", "sysctl", "debootstrap"];

let bareDir = "";

beforeAll(async () => {
  bareDir = mkdtempSync(path.join(os.tmpdir(), "pb-bare-path-"));
  symlinkSync(process.execPath, path.join(bareDir, "node"));
  const npm = await findOnPath("npm");
  if (npm) symlinkSync(realpathSync(npm), path.join(bareDir, "npm"));
  symlinkSync(realpathSync("/bin/sh"), path.join(bareDir, "sh"));
});

afterAll(() => {
  if (bareDir) rmSync(bareDir, { recursive: true, force: true });
});

/** The environment of a shell on this machine, minus everything that could point at a browser. */
function env(extra: Record<string, string>): NodeJS.ProcessEnv {
  const e: NodeJS.ProcessEnv = { ...process.env, ...extra };
  delete e.PLAYWRIGHT_CHROMIUM_PATH;
  delete e.PROBEBOOK_NO_INSTALL;
  delete e.npm_config_user_agent;
  return { ...e, ...extra };
}

function check(extra: Record<string, string>) {
  const r = spawnSync(process.execPath, [tsxCli, "scripts/check-system.ts", "--for", "test"], { cwd: root, env: env(extra), encoding: "utf8", timeout: 120_000 });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

describe("npm test's pre-check (scripts/check-system.ts)", () => {
  it("with everything installed, reports nothing to install and lets the suites run", () => {
    const r = check({});
    expect(r.out).toMatch(/all \d+ programs npm test needs are here; nothing to install/);
    expect(r.out).not.toContain("install-system-deps");
    expect(r.code).toBe(0);
  });

  it("PATH without the tools and installing forbidden: `npm test` names each missing piece with this distribution's command and stops before the suites", async () => {
    const npm = path.join(bareDir, "npm");
    expect(await findOnPath("npm", bareDir), "npm to run `npm test` with").toBe(npm);
    const r = spawnSync(npm, ["test"], { cwd: root, env: env({ PATH: bareDir, PROBEBOOK_NO_INSTALL: "1" }), encoding: "utf8", timeout: 120_000 });
    const out = `${r.stdout}${r.stderr}`;
    const missing = [...ALWAYS_NEEDED, ...(isRoot ? ROOT_NEEDED : [])];
    expect(out).toContain("npm test cannot run: missing on this machine");
    for (const tool of missing) expect(out).toMatch(new RegExp(`^\\[check-system\\]\\s+- ${tool.replace(".", "\\.")}: `, "m"));
    // The exact command for this distribution, from the same table the agent and the host page use.
    expect(out).toContain(`Install them with:\n[check-system]   ${installCommand(await readOsRelease(), missing, { asRoot: isRoot })}\n`);
    expect(out).not.toContain("running bash scripts/install-system-deps.sh");
    // Stopped before lint, the type check and both suites.
    expect(out).not.toMatch(/> (eslint|tsc|vitest|playwright)\b/);
    expect(r.status).not.toBe(0);
  });

  it("as root on Debian/Ubuntu, installs with scripts/install-system-deps.sh (the script CI uses), then checks again", async ({ skip }) => {
    skip(!isRoot, "needs root: installing system packages with apt-get");
    const family = distroFamily(await readOsRelease());
    skip(family !== "debian" && family !== "ubuntu", `needs a Debian or Ubuntu system (this is ${family ?? "unknown"})`);
    // The packages are installed on this machine, so the script only confirms that (quick and
    // safe); the tools stay off this PATH, so the check must still stop afterwards.
    const r = check({ PATH: bareDir });
    expect(r.out).toContain("installing them with scripts/install-system-deps.sh, the script CI uses");
    expect(r.out).toContain("running bash scripts/install-system-deps.sh");
    expect(r.out).toContain("install-system-deps: all packages are installed"); // the script's own words: it really ran
    expect(r.out).toContain("bash scripts/install-system-deps.sh exited with 0");
    expect(r.out).toContain("scripts/install-system-deps.sh ran, but these are still not on PATH");
    expect(r.code).toBe(1);
  });

  it("refuses an unknown purpose", () => {
    const r = spawnSync(process.execPath, [tsxCli, "scripts/check-system.ts", "--for", "nothing"], { cwd: root, encoding: "utf8" });
    expect(r.stderr).toContain("usage: tsx scripts/check-system.ts --for test");
    expect(r.status).toBe(2);
  });
});
