import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CAPABILITY_TOOLS } from "./capabilities";
import {
  distroFamily,
  familyFromPrettyName,
  installCommand,
  installPlan,
  osReleaseFromPrettyName,
  parseOsRelease,
  PROBE_TOOLS,
  readOsRelease,
  shellLine,
  SYSTEM_TOOLS,
  type OsRelease,
} from "./install-commands";

const fixture = (name: string) => readFileSync(path.join(__dirname, "fixtures", name), "utf8");
const osOf = (name: string): OsRelease => {
  const parsed = parseOsRelease(fixture(name));
  if (!parsed) throw new Error(`${name} has no ID`);
  return parsed;
};

const PROBES = [...PROBE_TOOLS];

describe("parseOsRelease and distroFamily", () => {
  it.each([
    ["os-release.txt", "debian", "debian"],
    ["hand-os-release-debian-11.txt", "debian", "debian"],
    ["hand-os-release-ubuntu-24.04.txt", "ubuntu", "ubuntu"],
    ["hand-os-release-mint-22.txt", "linuxmint", "ubuntu"],
    ["hand-os-release-fedora-41.txt", "fedora", "fedora"],
    ["hand-os-release-rocky-9.txt", "rocky", "rhel"],
    ["hand-os-release-rhel-9.txt", "rhel", "rhel"],
    ["hand-os-release-opensuse-leap-15.6.txt", "opensuse-leap", "suse"],
    ["hand-os-release-sles-15.txt", "sles", "suse"],
    ["hand-os-release-arch.txt", "arch", "arch"],
    ["hand-os-release-manjaro.txt", "manjaro", "arch"],
    ["hand-os-release-alpine-3.20.txt", "alpine", "alpine"],
  ])("%s → ID %s, family %s, and the PRETTY_NAME alone says the same", (file, id, family) => {
    const parsed = osOf(file);
    expect(parsed.id).toBe(id);
    expect(distroFamily(parsed)).toBe(family);
    expect(familyFromPrettyName(parsed.prettyName)).toBe(family);
  });

  it("a host profile's PRETTY_NAME alone gives the same command as the full os-release", () => {
    for (const file of ["os-release.txt", "hand-os-release-debian-11.txt", "hand-os-release-ubuntu-24.04.txt", "hand-os-release-rocky-9.txt", "hand-os-release-alpine-3.20.txt"]) {
      const full = osOf(file);
      expect(installCommand(osReleaseFromPrettyName(full.prettyName), PROBES), file).toBe(installCommand(full, PROBES));
    }
    expect(osReleaseFromPrettyName("Haiku R1")).toBeNull();
  });

  it("reads ID_LIKE in order and VERSION_ID unquoted", () => {
    expect(osOf("hand-os-release-rocky-9.txt")).toEqual({ id: "rocky", idLike: ["rhel", "centos", "fedora"], versionId: "9.4", prettyName: "Rocky Linux 9.4 (Blue Onyx)" });
  });

  it("knows nothing of a file without ID, or of an unknown distribution", () => {
    expect(parseOsRelease('NAME="Something"\n')).toBeNull();
    expect(distroFamily(parseOsRelease("ID=plan9\n"))).toBeNull();
    expect(distroFamily(null)).toBeNull();
    expect(familyFromPrettyName(null)).toBeNull();
  });

  it("on this Debian machine, knows which apt sources file it has", async ({ skip }) => {
    const here = await readOsRelease();
    skip(distroFamily(here) !== "debian", "needs a Debian machine");
    const deb822 = existsSync("/etc/apt/sources.list.d/debian.sources");
    expect(here?.aptSources).toBe(deb822 ? "deb822" : "list");
  });

  it("reads this machine's /etc/os-release and falls back to the next file", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "pb-osr-"));
    try {
      writeFileSync(path.join(dir, "os-release"), fixture("hand-os-release-alpine-3.20.txt"));
      expect(await readOsRelease([path.join(dir, "missing"), path.join(dir, "os-release")])).toMatchObject({ id: "alpine", versionId: "3.20.3" });
      expect(await readOsRelease([path.join(dir, "missing")])).toBeNull();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("installCommand for the probe tools (iozone, dd, sar, sadf, fio)", () => {
  it("Debian 12: non-free for iozone3 in deb822 sources, then apt-get", () => {
    expect(installCommand(osOf("os-release.txt"), PROBES)).toBe(
      "sudo sed -i -E '/^Components:/{/ non-free( |$)/!s/$/ non-free/}' /etc/apt/sources.list.d/debian.sources" +
        " && sudo apt-get update && sudo apt-get install -y iozone3 coreutils sysstat fio",
    );
  });

  it("Debian 11: non-free in sources.list lines", () => {
    const cmd = installCommand(osOf("hand-os-release-debian-11.txt"), ["iozone"], { asRoot: true });
    expect(cmd).toMatch(/^sed -i -E .* \/etc\/apt\/sources\.list && apt-get update && apt-get install -y iozone3$/);
  });

  it("Debian 12 upgraded from 11 (sources.list kept): edits sources.list", () => {
    const cmd = installCommand({ ...osOf("os-release.txt"), aptSources: "list" }, ["iozone"], { asRoot: true });
    expect(cmd).toMatch(/^sed -i -E .* \/etc\/apt\/sources\.list && apt-get update/);
  });

  it("Ubuntu and its derivatives: multiverse for iozone3", () => {
    const expected = "sudo add-apt-repository -y multiverse && sudo apt-get update && sudo apt-get install -y iozone3 sysstat fio";
    expect(installCommand(osOf("hand-os-release-ubuntu-24.04.txt"), ["iozone", "sar", "sadf", "fio"])).toBe(expected);
    expect(installCommand(osOf("hand-os-release-mint-22.txt"), ["iozone", "sar", "sadf", "fio"])).toBe(expected);
  });

  it("no repository step when iozone is not asked for", () => {
    expect(installCommand(osOf("hand-os-release-ubuntu-24.04.txt"), ["fio"], { asRoot: true })).toBe("apt-get update && apt-get install -y fio");
    expect(installCommand(osOf("os-release.txt"), ["sar"])).toBe("sudo apt-get update && sudo apt-get install -y sysstat");
  });

  it("Fedora: dnf, and iozone from source", () => {
    const cmd = installCommand(osOf("hand-os-release-fedora-41.txt"), ["sar", "fio", "iozone"]);
    expect(cmd).toMatch(/^sudo dnf install -y sysstat fio; iozone is not packaged for Fedora; build it from source: .*iozone\.org/);
  });

  it("RHEL and Rocky: EPEL only for chromium", () => {
    expect(installCommand(osOf("hand-os-release-rocky-9.txt"), ["sar", "fio"])).toBe("sudo dnf install -y sysstat fio");
    expect(installCommand(osOf("hand-os-release-rhel-9.txt"), ["chromium", "fio"], { asRoot: true })).toBe(
      "dnf install -y epel-release && dnf install -y chromium fio",
    );
  });

  it("SUSE: zypper; iozone from the benchmark repository", () => {
    const cmd = installCommand(osOf("hand-os-release-opensuse-leap-15.6.txt"), PROBES);
    expect(cmd.startsWith("sudo zypper --non-interactive install coreutils sysstat fio; iozone is in openSUSE's \"benchmark\" repository")).toBe(true);
    expect(installCommand(osOf("hand-os-release-sles-15.txt"), ["numactl"])).toBe("sudo zypper --non-interactive install numactl");
  });

  it("Arch: pacman; iozone from the AUR", () => {
    expect(installCommand(osOf("hand-os-release-manjaro.txt"), PROBES)).toMatch(
      /^sudo pacman -S --needed --noconfirm coreutils sysstat fio; iozone is in the AUR/,
    );
  });

  it("Alpine: apk, numactl-tools for numactl", () => {
    expect(installCommand(osOf("hand-os-release-alpine-3.20.txt"), ["sar", "numactl", "mkfs.xfs"], { asRoot: true })).toBe(
      "apk add sysstat numactl-tools xfsprogs",
    );
  });

  it("an unknown distribution gets one instruction per tool instead of a guessed command", () => {
    const plan = installPlan(parseOsRelease("ID=plan9\n"), ["fio", "sar"]);
    expect(plan).toMatchObject({ family: null, packages: [], steps: [] });
    expect(installCommand(null, ["fio"])).toBe("install fio with your distribution's package manager");
  });

  it("nothing to install: no command", () => {
    expect(installCommand(osOf("os-release.txt"), [])).toBe("");
  });
});

describe("PROBE_TOOLS", () => {
  it("are the tools the agent reports in its capabilities", () => {
    expect([...PROBE_TOOLS].sort()).toEqual([...CAPABILITY_TOOLS].sort());
  });
});

describe("shellLine", () => {
  it("quotes so that bash hands the program exactly the argv", () => {
    const plan = installPlan(osOf("hand-os-release-debian-11.txt"), ["iozone"]);
    const argv = [...plan.steps[0]!.argv, "it's", "a b", "$HOME"];
    const echoed = execFileSync("bash", ["-c", `printf '%s\\n' ${shellLine(argv)}`], { encoding: "utf8" });
    expect(echoed.split("\n").slice(0, -1)).toEqual(argv);
  });
});

describe("the Debian steps work on real files", () => {
  it("the deb822 step adds non-free once, beside non-free-firmware, and is idempotent", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "pb-apt-"));
    try {
      const file = path.join(dir, "debian.sources");
      writeFileSync(file, "Types: deb\nComponents: main non-free-firmware\n\nTypes: deb\nComponents: main non-free\n");
      const argv = installPlan(osOf("os-release.txt"), ["iozone"]).steps[0]!.argv.slice(0, -1);
      execFileSync(argv[0]!, [...argv.slice(1), file]);
      execFileSync(argv[0]!, [...argv.slice(1), file]);
      expect(readFileSync(file, "utf8")).toBe("Types: deb\nComponents: main non-free-firmware non-free\n\nTypes: deb\nComponents: main non-free\n");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("the sources.list step adds non-free to deb lines with main only", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "pb-apt-"));
    try {
      const file = path.join(dir, "sources.list");
      writeFileSync(file, "deb http://deb.debian.org/debian bullseye main\ndeb http://deb.debian.org/debian bullseye main contrib non-free\n# deb http://x main\n");
      const argv = installPlan(osOf("hand-os-release-debian-11.txt"), ["iozone"]).steps[0]!.argv.slice(0, -1);
      execFileSync(argv[0]!, [...argv.slice(1), file]);
      expect(readFileSync(file, "utf8")).toBe(
        "deb http://deb.debian.org/debian bullseye main non-free\ndeb http://deb.debian.org/debian bullseye main contrib non-free\n# deb http://x main\n",
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("scripts/install-system-deps.sh (what CI and npm test install with)", () => {
  it("installs the Debian package of every tool this module knows", () => {
    const script = readFileSync(path.join(__dirname, "..", "..", "scripts", "install-system-deps.sh"), "utf8");
    const line = /^for pkg in (.*); do$/m.exec(script)?.[1];
    expect(line, "the script's package loop").toBeDefined();
    const scripted = line!.split(/\s+/).map((p) => (p === '"$chromium"' ? "chromium" : p));
    // coreutils (dd) is essential on every Debian system: the script need not name it.
    const wanted = installPlan(osOf("os-release.txt"), SYSTEM_TOOLS).packages.filter((p) => p !== "coreutils");
    expect(scripted).toEqual(expect.arrayContaining(wanted));
  });
});
