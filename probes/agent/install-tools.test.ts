// `probebook-agent --install-tools` as a real process: PATH is a directory with symlinks to the
// probe tools this machine has, minus the one a test takes away.
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findOnPath } from "../profile/exec-tool";
import { distroFamily, parseOsRelease, PROBE_TOOLS, readOsRelease } from "../profile/install-commands";
import { installTools, runCommand } from "./install-tools";

const root = path.resolve(__dirname, "..", "..");
const tsxCli = path.join(root, "node_modules", "tsx", "dist", "cli.mjs");
const isRoot = process.getuid?.() === 0;
let withoutFio = "";

beforeAll(async () => {
  withoutFio = mkdtempSync(path.join(os.tmpdir(), "pb-no-fio-"));
  chmodSync(withoutFio, 0o755); // the unprivileged user of the refusal test reads it too
  symlinkSync(process.execPath, path.join(withoutFio, "node"));
  for (const tool of PROBE_TOOLS.filter((t) => t !== "fio")) {
    const found = await findOnPath(tool);
    if (found) symlinkSync(found, path.join(withoutFio, tool));
  }
});
afterAll(() => {
  if (withoutFio) rmSync(withoutFio, { recursive: true, force: true });
});

function agent(pathEnv: string, asUser?: number) {
  const node = path.join(withoutFio, "node");
  const argv = [node, tsxCli, "probes/agent/main.ts", "--install-tools"];
  const [file, ...args] = asUser === undefined ? argv : ["/usr/bin/setpriv", `--reuid=${asUser}`, `--regid=${asUser}`, "--clear-groups", ...argv];
  const r = spawnSync(file!, args, { cwd: root, env: { ...process.env, PATH: pathEnv }, encoding: "utf8", timeout: 180_000 });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

describe("probebook-agent --install-tools", () => {
  it("with every probe tool on PATH, installs nothing and says so", async ({ skip }) => {
    const found = await Promise.all(PROBE_TOOLS.map((t) => findOnPath(t)));
    skip(found.includes(null), "needs all probe tools installed (npm test's pre-check installs them)");
    const r = agent(process.env.PATH ?? "");
    expect(r.out).toContain("every probe tool is installed (iozone, dd, sar, sadf, fio); nothing to do");
    expect(r.code).toBe(0);
  });

  it("refuses without root, naming what is missing and the command to install it", async ({ skip }) => {
    skip(!isRoot || !existsSync("/usr/bin/setpriv"), "needs root: to run the agent as the unprivileged user nobody (setpriv)");
    const r = agent(withoutFio, 65534);
    expect(r.out).toContain("missing on");
    expect(r.out).toMatch(/: fio\n/);
    expect(r.out).toContain("--install-tools installs packages and needs root");
    const family = distroFamily(await readOsRelease());
    if (family === "debian" || family === "ubuntu") expect(r.out).toContain("sudo apt-get update && sudo apt-get install -y fio");
    expect(r.out).not.toContain("running ");
    expect(r.code).toBe(2);
  });

  it("as root on Debian/Ubuntu, runs apt-get for the missing tool and reports what it did", async ({ skip }) => {
    skip(!isRoot, "needs root: installs packages with apt-get");
    const family = distroFamily(await readOsRelease());
    skip(family !== "debian" && family !== "ubuntu", `needs a Debian or Ubuntu system (this is ${family ?? "unknown"})`);
    skip((await findOnPath("fio")) === null, "needs fio installed, so that apt-get has nothing to download");
    // fio is installed on this machine, so apt-get confirms it quickly; it stays off this PATH,
    // so the agent must say that it is still missing rather than claim success.
    const r = agent(withoutFio);
    expect(r.out).toContain("running apt-get update   (refresh the package lists)");
    expect(r.out).toContain("running apt-get install -y fio   (install the packages)");
    expect(r.out).toMatch(/fio is already the newest version/); // apt-get's own words: it really ran
    expect(r.out).toContain("installed or already present: fio");
    expect(r.out).toContain(`still not on PATH (${withoutFio}): fio`);
    expect(r.code).toBe(1);
  });

  it("stops at the first command that fails (a package manager this machine does not have)", async ({ skip }) => {
    skip((await findOnPath("dnf")) !== null, "needs a machine without dnf");
    const said: string[] = [];
    const code = await installTools({
      isRoot: true,
      pathEnv: withoutFio,
      osRelease: parseOsRelease('ID="rocky"\nID_LIKE="rhel centos fedora"\nVERSION_ID="9.4"\n'),
      run: runCommand,
      say: (l) => said.push(l),
    });
    expect(said).toContain("dnf failed (exit 127); nothing after it was run");
    expect(said.filter((l) => l.startsWith("running "))).toEqual(["running dnf install -y fio   (install the packages)"]);
    expect(code).toBe(1);
  });

  it("with --lab, installs the lab's mkfs tools too: xfsprogs and btrfs-progs, by the distribution's names", async () => {
    // A PATH with every probe tool but no mkfs: the plan names the lab's packages; dnf is absent
    // here (or refuses), so nothing is installed.
    const said: string[] = [];
    const allProbes = mkdtempSync(path.join(os.tmpdir(), "pb-probes-only-"));
    try {
      for (const tool of PROBE_TOOLS) symlinkSync("/bin/true", path.join(allProbes, tool));
      const run = async (argv: string[]) => {
        said.push(`ran ${argv.join(" ")}`);
        return 1;
      };
      const fedora = parseOsRelease('ID=fedora\nVERSION_ID="41"\n');
      await installTools({ isRoot: true, pathEnv: allProbes, osRelease: fedora, run, say: (l) => said.push(l), lab: true });
      expect(said).toContain("ran dnf install -y e2fsprogs xfsprogs btrfs-progs util-linux");
      said.length = 0;
      const suse = parseOsRelease('ID="opensuse-tumbleweed"\nID_LIKE="opensuse suse"\n');
      await installTools({ isRoot: true, pathEnv: allProbes, osRelease: suse, run, say: (l) => said.push(l), lab: true });
      expect(said).toContain("ran zypper --non-interactive install e2fsprogs xfsprogs btrfsprogs util-linux");
      // Without --lab the probe tools are all there: nothing to do, nothing run.
      said.length = 0;
      expect(await installTools({ isRoot: true, pathEnv: allProbes, osRelease: fedora, run, say: (l) => said.push(l) })).toBe(0);
      expect(said.some((l) => l.startsWith("ran "))).toBe(false);
    } finally {
      rmSync(allProbes, { recursive: true, force: true });
    }
  });
});
