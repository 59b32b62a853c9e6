// Which package brings which tool on which Linux distribution, and the exact commands that
// install them. One table for everyone who says "install X": the `npm test` pre-check, the
// `npm start` hint, the host page's missing-tool hint and the agent's `--install-tools`.
import { access, readFile } from "node:fs/promises";
import { allProbes } from "../catalog";
import { samePackage, type DistroFamily, type PackagesByFamily } from "../core/packages";
import { parseOsReleaseFields } from "./parse-kernel-files";

export type { DistroFamily } from "../core/packages";

/** The fields of /etc/os-release that decide the package manager and package names. */
export interface OsRelease {
  id: string;
  /** ID_LIKE, closest relative first, as the distribution lists it. */
  idLike: string[];
  versionId: string | null;
  prettyName: string | null;
  /**
   * Where apt's Debian sources are on this machine, when known: deb822 (Debian 12's
   * debian.sources) or one-line sources.list (older releases, and systems upgraded from them).
   */
  aptSources?: "deb822" | "list";
}

/**
 * Tools Probebook runs besides the probes' own binaries: the browser of the end-to-end suite,
 * what the lab and the loop-mount tests make file systems with, sysctl for tunables, numactl, and
 * debootstrap, with which the agent-executable test makes a Debian root without Node, and shellcheck,
 * which holds the agent's install script to POSIX sh.
 */
const OTHER_TOOLS: Record<string, PackagesByFamily> = {
  chromium: samePackage("chromium", { ubuntu: "chromium-browser" }),
  "mkfs.ext4": samePackage("e2fsprogs"),
  "mkfs.xfs": samePackage("xfsprogs"),
  "mkfs.btrfs": samePackage("btrfs-progs", {
    suse: "btrfsprogs",
    rhel: { manual: "RHEL and its rebuilds ship no btrfs (the lab offers ext2/3/4 and xfs there)" },
  }),
  losetup: samePackage("util-linux"),
  mount: samePackage("util-linux"),
  sysctl: samePackage("procps", { fedora: "procps-ng", rhel: "procps-ng", alpine: "procps-ng" }),
  numactl: samePackage("numactl", { alpine: "numactl-tools" }),
  debootstrap: samePackage("debootstrap"),
  shellcheck: samePackage("shellcheck", { fedora: "ShellCheck", rhel: "ShellCheck" }),
};

/** A tool name: a probe's binary or companion (from the catalog) or one of OTHER_TOOLS. */
export type SystemTool = string;

interface ToolPackages {
  packages: PackagesByFamily;
  outsideMainRepos: boolean;
}

/** Every probe binary and companion with the packages its probe declares (probes sharing a binary agree). */
const PROBE_PACKAGES: ReadonlyMap<string, ToolPackages> = new Map(
  allProbes().flatMap((p) => {
    const entry = { packages: p.tool.packages, outsideMainRepos: p.tool.outsideMainRepos ?? false };
    return [p.tool.binary, ...(p.tool.companions ?? []).map((c) => c.binary)].map((b) => [b, entry] as const);
  }),
);

/** The probe tools the agent reports (the same names as its capabilities). */
export const PROBE_TOOLS: readonly string[] = [...PROBE_PACKAGES.keys()];

export const SYSTEM_TOOLS: readonly string[] = [...PROBE_TOOLS, ...Object.keys(OTHER_TOOLS)];

/**
 * What the agent's file-system lab (`--lab`) makes file systems with: one mkfs per package
 * (mkfs.ext2/3 come with mkfs.ext4's e2fsprogs) and the loop devices. The lab offers a file
 * system only when its mkfs is there, so `--install-tools --lab` installs these too.
 */
export const LAB_TOOLS: readonly string[] = ["mkfs.ext4", "mkfs.xfs", "mkfs.btrfs", "losetup"];

function packagesOf(tool: SystemTool): ToolPackages | null {
  const probe = PROBE_PACKAGES.get(tool);
  if (probe) return probe;
  const other = OTHER_TOOLS[tool];
  return other ? { packages: other, outsideMainRepos: false } : null;
}

const FAMILY_OF_ID: Record<string, DistroFamily> = {
  debian: "debian",
  raspbian: "debian",
  ubuntu: "ubuntu",
  fedora: "fedora",
  rhel: "rhel",
  centos: "rhel",
  rocky: "rhel",
  almalinux: "rhel",
  ol: "rhel",
  suse: "suse",
  sles: "suse",
  opensuse: "suse",
  "opensuse-leap": "suse",
  "opensuse-tumbleweed": "suse",
  arch: "arch",
  alpine: "alpine",
};

/** ID and ID_LIKE of an os-release text; null without an ID. */
export function parseOsRelease(text: string): OsRelease | null {
  const f = parseOsReleaseFields(text);
  const id = f.ID?.toLowerCase();
  if (!id) return null;
  return {
    id,
    idLike: (f.ID_LIKE ?? "").toLowerCase().split(/\s+/).filter(Boolean),
    versionId: f.VERSION_ID || null,
    prettyName: f.PRETTY_NAME || null,
  };
}

const DEB822_SOURCES = "/etc/apt/sources.list.d/debian.sources";
const exists = (file: string) => access(file).then(() => true, () => false);

/**
 * This machine's os-release (the path os-release(5) names first, then its fallback); on
 * Debian also which form its apt sources take, so that enabling non-free edits the right file.
 */
export async function readOsRelease(files: readonly string[] = ["/etc/os-release", "/usr/lib/os-release"]): Promise<OsRelease | null> {
  for (const file of files) {
    const text = await readFile(file, "utf8").catch(() => null);
    if (text === null) continue;
    const os = parseOsRelease(text);
    if (os && distroFamily(os) === "debian") {
      if (await exists(DEB822_SOURCES)) os.aptSources = "deb822";
      else if (await exists("/etc/apt/sources.list")) os.aptSources = "list";
    }
    return os;
  }
  return null;
}

/** The distribution family by ID, else by the first ID_LIKE entry we know (Mint → ubuntu, Rocky → rhel). */
export function distroFamily(os: OsRelease | null): DistroFamily | null {
  if (!os) return null;
  for (const id of [os.id, ...os.idLike]) {
    const family = FAMILY_OF_ID[id];
    if (family) return family;
  }
  return null;
}

/**
 * The family from a PRETTY_NAME alone, for host profiles that carry only that
 * ("Debian GNU/Linux 12 (bookworm)", "Rocky Linux 9.4 (Blue Onyx)").
 */
export function familyFromPrettyName(prettyName: string | null): DistroFamily | null {
  const name = (prettyName ?? "").toLowerCase();
  const rules: [RegExp, DistroFamily][] = [
    [/\bubuntu\b|\bmint\b|\bpop!_os\b/, "ubuntu"],
    [/\bdebian\b|\braspbian\b/, "debian"],
    [/\bfedora\b/, "fedora"],
    [/\bred hat\b|\brhel\b|\bcentos\b|\brocky\b|\balmalinux\b|\boracle linux\b/, "rhel"],
    [/\bsuse\b|\bopensuse\b|\bsles\b/, "suse"],
    [/\barch\b|\bmanjaro\b|\bendeavouros\b/, "arch"],
    [/\balpine\b/, "alpine"],
  ];
  return rules.find(([re]) => re.test(name))?.[1] ?? null;
}

/**
 * An OsRelease good enough for installCommand from a PRETTY_NAME alone (what stored host
 * profiles carry): the family as its ID and the first number as VERSION_ID.
 */
export function osReleaseFromPrettyName(prettyName: string | null): OsRelease | null {
  const family = familyFromPrettyName(prettyName);
  if (!family) return null;
  return { id: family, idLike: [], versionId: /\b(\d+(?:\.\d+)?)\b/.exec(prettyName ?? "")?.[1] ?? null, prettyName };
}

/** One command to run as root, as argv (no shell), and why it is there. */
export interface InstallStep {
  argv: string[];
  why: string;
}

export interface InstallPlan {
  family: DistroFamily | null;
  /** Distribution packages, in the order of the tools asked for, without duplicates. */
  packages: string[];
  /** Commands to run as root, in order; empty when nothing can be installed by package. */
  steps: InstallStep[];
  /** Tools no package brings here, each with what to do instead. */
  manual: { tool: SystemTool; how: string }[];
}

// Debian 12 keeps its sources in deb822 form; older releases in sources.list lines.
// " non-free" as a whole word: Debian 12's installer already adds "non-free-firmware".
const DEBIAN_NON_FREE_DEB822: string[] = ["sed", "-i", "-E", "/^Components:/{/ non-free( |$)/!s/$/ non-free/}", DEB822_SOURCES];
const DEBIAN_NON_FREE_LIST: string[] = ["sed", "-i", "-E", "/^deb .* main( |$)/{/ non-free( |$)/!s/ main( |$)/ main non-free\\1/}", "/etc/apt/sources.list"];

function majorVersion(os: OsRelease | null): number | null {
  const major = Number((os?.versionId ?? "").split(".")[0]);
  return Number.isInteger(major) && major > 0 ? major : null;
}

/** `outside`: packages from Debian's non-free / Ubuntu's multiverse, named in the step's reason. */
function managerSteps(family: DistroFamily, os: OsRelease | null, packages: string[], outside: string[]): InstallStep[] {
  const has = (p: string) => packages.includes(p);
  const outsideList = outside.join(", ");
  switch (family) {
    case "debian": {
      const steps: InstallStep[] = [];
      if (outside.length > 0) {
        const list = os?.aptSources ? os.aptSources === "list" : (majorVersion(os) ?? 12) < 12;
        steps.push({ argv: list ? DEBIAN_NON_FREE_LIST : DEBIAN_NON_FREE_DEB822, why: `${outsideList} ${outside.length > 1 ? "are" : "is"} only in Debian's non-free component` });
      }
      steps.push({ argv: ["apt-get", "update"], why: "refresh the package lists" });
      steps.push({ argv: ["apt-get", "install", "-y", ...packages], why: "install the packages" });
      return steps;
    }
    case "ubuntu":
      return [
        ...(outside.length > 0 ? [{ argv: ["add-apt-repository", "-y", "multiverse"], why: `${outsideList} ${outside.length > 1 ? "are" : "is"} only in Ubuntu's multiverse component` }] : []),
        { argv: ["apt-get", "update"], why: "refresh the package lists" },
        { argv: ["apt-get", "install", "-y", ...packages], why: "install the packages" },
      ];
    case "fedora":
      return [{ argv: ["dnf", "install", "-y", ...packages], why: "install the packages" }];
    case "rhel":
      return [
        ...(has("chromium") ? [{ argv: ["dnf", "install", "-y", "epel-release"], why: "chromium comes from EPEL" }] : []),
        { argv: ["dnf", "install", "-y", ...packages], why: "install the packages" },
      ];
    case "suse":
      return [{ argv: ["zypper", "--non-interactive", "install", ...packages], why: "install the packages" }];
    case "arch":
      return [{ argv: ["pacman", "-S", "--needed", "--noconfirm", ...packages], why: "install the packages" }];
    case "alpine":
      return [{ argv: ["apk", "add", ...packages], why: "install the packages" }];
  }
}

/** What installs `tools` on the distribution `os` describes. */
export function installPlan(os: OsRelease | null, tools: readonly SystemTool[]): InstallPlan {
  const family = distroFamily(os);
  const unique = [...new Set(tools)];
  if (!family) {
    return { family, packages: [], steps: [], manual: unique.map((tool) => ({ tool, how: `install ${tool} with your distribution's package manager` })) };
  }
  const packages: string[] = [];
  const outside: string[] = [];
  const manual: InstallPlan["manual"] = [];
  for (const tool of unique) {
    const known = packagesOf(tool);
    const source = known?.packages[family] ?? { manual: `install ${tool} with your distribution's package manager` };
    if (typeof source === "string") {
      if (!packages.includes(source)) packages.push(source);
      if (known?.outsideMainRepos && !outside.includes(source)) outside.push(source);
    } else manual.push({ tool, how: source.manual });
  }
  return { family, packages, steps: packages.length > 0 ? managerSteps(family, os, packages, outside) : [], manual };
}

/** argv as one line a person can paste into a shell (arguments with spaces or specials quoted). */
export function shellLine(argv: readonly string[]): string {
  return argv.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, "'\\''")}'`)).join(" ");
}

/**
 * The command (or instructions) that installs `tools` here, as one text for a person:
 * "sudo apt-get update && sudo apt-get install -y <packages>". `asRoot` drops the sudo.
 */
export function installCommand(os: OsRelease | null, tools: readonly SystemTool[], opts: { asRoot?: boolean } = {}): string {
  const plan = installPlan(os, tools);
  const prefix = opts.asRoot ? "" : "sudo ";
  const parts: string[] = [];
  if (plan.steps.length > 0) parts.push(plan.steps.map((s) => prefix + shellLine(s.argv)).join(" && "));
  for (const m of plan.manual) parts.push(m.how);
  return parts.join("; ");
}
