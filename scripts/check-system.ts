// `npm test`'s first step: are the programs the suites run here? As root on Debian/Ubuntu it
// installs what is missing with the script CI uses; otherwise it stops at once with one message
// and this distribution's install command, instead of a hundred tests failing one by one.
// PROBEBOOK_NO_INSTALL=1 forbids installing.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { systemChromium } from "../lib/runtime/chromium-path";
import { findOnPath } from "../probes/profile/exec-tool";
import { distroFamily, installCommand, PROBE_TOOLS, readOsRelease, type SystemTool } from "../probes/profile/install-commands";

const root = path.resolve(__dirname, "..");
const INSTALL_SCRIPT = "scripts/install-system-deps.sh";
const say = (msg: string) => console.log(`[check-system] ${msg}`);

interface Need {
  tool: SystemTool;
  why: string;
  /** Only root can use it: the tests that need it are skipped for other users. */
  rootOnly?: boolean;
}

const TEST_NEEDS: Need[] = [
  { tool: "chromium", why: "the browser the end-to-end suite drives (or set PLAYWRIGHT_CHROMIUM_PATH)" },
  // Every binary of every probe in the catalog, companions included.
  ...PROBE_TOOLS.map((tool) => ({ tool, why: `the tests and live runs of the probes that use ${tool}` })),
  { tool: "shellcheck", why: "the agent's install script is checked as POSIX sh" },
  { tool: "mkfs.ext4", why: "the loop-mount tests make ext3/ext4 file systems", rootOnly: true },
  { tool: "mkfs.xfs", why: "the loop-mount tests make xfs file systems", rootOnly: true },
  { tool: "losetup", why: "the loop-mount tests detach loop devices", rootOnly: true },
  { tool: "mount", why: "the loop-mount tests mount images", rootOnly: true },
  { tool: "sysctl", why: "the tunables tests read and set vm sysctls", rootOnly: true },
  { tool: "debootstrap", why: "the agent-executable test runs the agent in a minimal Debian root it makes", rootOnly: true },
];

async function playwrightBrowserPresent(): Promise<boolean> {
  // Playwright's own download, as on a laptop with internet; loaded only when needed (slow import).
  const { chromium } = await import("@playwright/test");
  return existsSync(chromium.executablePath());
}

async function isMissing(need: Need, env: NodeJS.ProcessEnv): Promise<boolean> {
  if (need.tool === "chromium") {
    const found = systemChromium(env);
    if (found) return !existsSync(found);
    return !(await playwrightBrowserPresent());
  }
  return (await findOnPath(need.tool, env.PATH)) === null;
}

async function missingNeeds(needs: Need[], env: NodeJS.ProcessEnv): Promise<Need[]> {
  const flags = await Promise.all(needs.map((n) => isMissing(n, env)));
  return needs.filter((_, i) => flags[i]);
}

/** Runs the install script with the system directories on PATH (apt-get, dpkg live in sbin). */
function runInstallScript(env: NodeJS.ProcessEnv): number {
  const PATH = [env.PATH, "/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin"].filter(Boolean).join(":");
  say(`running bash ${INSTALL_SCRIPT} …`);
  const r = spawnSync("bash", [path.join(root, INSTALL_SCRIPT)], { cwd: root, env: { ...env, PATH }, stdio: "inherit" });
  const code = r.status ?? 1;
  say(`bash ${INSTALL_SCRIPT} exited with ${code}${r.error ? ` (${r.error.message})` : ""}`);
  return code;
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { for: { type: "string" } } });
  if (values.for !== "test") {
    console.error("usage: tsx scripts/check-system.ts --for test");
    return 2;
  }
  const env = process.env;
  const isRoot = process.getuid?.() === 0;
  const needs = TEST_NEEDS.filter((n) => isRoot || !n.rootOnly);
  if (!isRoot) say("not running as root: the loop-mount and tunables tests will be skipped (needs root: mount -o loop, /proc/sys writes)");

  let missing = await missingNeeds(needs, env);
  if (missing.length === 0) {
    say(`all ${needs.length} programs npm test needs are here; nothing to install`);
    return 0;
  }
  const os = await readOsRelease();
  const family = distroFamily(os);
  const list = () => missing.map((n) => `  - ${n.tool}: ${n.why}`);
  const noInstall = env.PROBEBOOK_NO_INSTALL === "1";
  let installExit: number | null = null;
  if (isRoot && (family === "debian" || family === "ubuntu") && !noInstall) {
    say("npm test needs programs this machine lacks:");
    for (const line of list()) say(line);
    say(`installing them with ${INSTALL_SCRIPT}, the script CI uses (PROBEBOOK_NO_INSTALL=1 forbids this)`);
    installExit = runInstallScript(env);
    missing = await missingNeeds(needs, env);
    if (missing.length === 0) {
      say("installed; every program npm test needs is here now");
      return 0;
    }
  }
  const where = os?.prettyName ?? os?.id ?? "an unknown Linux distribution (no /etc/os-release)";
  const lines = [
    installExit === null
      ? `npm test cannot run: missing on this machine (${where}):`
      : installExit === 0
        ? `npm test cannot run: ${INSTALL_SCRIPT} ran, but these are still not on PATH (${env.PATH ?? ""}) on ${where}:`
        : `npm test cannot run: ${INSTALL_SCRIPT} failed (exit ${installExit}; its output is above), so these are still missing on ${where}:`,
    ...list(),
    "Install them with:",
    `  ${installCommand(os, missing.map((n) => n.tool), { asRoot: isRoot })}`,
  ];
  if (family === "debian" || family === "ubuntu") {
    lines.push(isRoot ? `(npm test runs ${INSTALL_SCRIPT} itself when PROBEBOOK_NO_INSTALL is unset)` : `or: sudo bash ${INSTALL_SCRIPT}`);
  }
  console.error(lines.map((l) => `[check-system] ${l}`).join("\n"));
  return 1;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`[check-system] could not check: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
