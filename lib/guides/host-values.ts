/**
 * What a registered host currently has for each tunable, read from the profile JSON the agent
 * stores on Host.profile, and whether that agrees with the guides.
 *
 * The profile comes from agents of any version on any distribution; probes/profile/read-profile.ts
 * reads it field by field (a malformed `targets` does not hide good `sysctls`), so here every
 * fact is either known or null.
 *
 * Recommendations in the guides are prose for people ("0 (add vm.zone_reclaim_mode = 0 to
 * /etc/sysctl.conf …)"), so the comparison uses small, explicit rules: the leading number of a
 * sysctl recommendation, the THP modes a THP recommendation names, and per-option rules for the
 * mount options. Anything we cannot judge is shown without a verdict rather than guessed.
 */
import type { HostProfile, TargetProfile } from "../../probes/profile/types";
import type { TunableKind } from "./tunables";

export type HostValueStatus = "ok" | "warn" | "info" | "none";

export interface HostValue {
  /** What the host has, e.g. "0", "never", "yes on /data", "no", "—". */
  text: string;
  /** ok: agrees with the guide; warn: differs; info: shown without a verdict; none: nothing to show. */
  status: HostValueStatus;
  /** A short explanation shown under the value, e.g. "atime updates on /var". */
  detail?: string;
}

// ---------------------------------------------------------------------------
// Reading the recommendation

/**
 * The value a sysctl recommendation asks for, when it starts with one: "0 (add …)" → "0",
 * "leave at 1 (default)" → "1"; "leave the kernel's computed value …" → null.
 */
export function recommendedSysctlValue(recommended: string): string | null {
  const m = /^\s*(?:(?:leave|keep)\s+(?:it\s+)?at\s+)?(-?\d+(?:\.\d+)?)(?![\d.])/i.exec(recommended);
  return m ? m[1]! : null;
}

const THP_MODES = /(?<![\w+])(defer\+madvise|always|madvise|never|defer|within_size|advise)(?![\w+])/g;

/** The THP modes a recommendation names, in order; the first is the one it prefers. */
export function recommendedThpModes(recommended: string): string[] {
  return [...new Set([...recommended.matchAll(THP_MODES)].map((m) => m[1]!))];
}

/** sysfs shows every mode with the active one in brackets: "always madvise [never]" → "never". */
export function activeThpMode(value: string): string {
  const m = /\[([^\]]+)\]/.exec(value);
  return (m ? m[1]! : value).trim();
}

// ---------------------------------------------------------------------------
// Mount options

interface MountHit {
  path: string;
  option: string;
}

interface MountRule {
  /** Which mount options belong to this tunable (e.g. barrier, barrier=0 and nobarrier). */
  matches: (option: string) => boolean;
  judge: (hits: MountHit[], targets: TargetProfile[]) => Pick<HostValue, "status" | "detail">;
}

function pathsOf(items: Array<{ path: string }>): string {
  return items.map((t) => t.path).join(", ");
}

/** Rules for the mount options the guides discuss; each follows that guide's recommendation. */
const MOUNT_RULES: Record<string, MountRule> = {
  // "relatime (the default since Linux 2.6.30) or noatime": either is fine, strictatime is not.
  noatime: {
    matches: (o) => o === "noatime",
    judge: (_hits, targets) => {
      const updating = targets.filter(
        (t) =>
          t.mountOptions.includes("strictatime") ||
          (t.mountOptions.length > 0 && !t.mountOptions.includes("noatime") && !t.mountOptions.includes("relatime")),
      );
      if (updating.length > 0) return { status: "warn", detail: `full atime updates on ${pathsOf(updating)}` };
      const relatime = targets.filter((t) => t.mountOptions.includes("relatime"));
      return { status: "ok", detail: relatime.length > 0 ? `relatime on ${pathsOf(relatime)}` : undefined };
    },
  },
  // "leave barriers on": only barrier=0 / nobarrier differ.
  barrier: {
    matches: (o) => o === "barrier" || o.startsWith("barrier=") || o === "nobarrier",
    judge: (hits) => {
      const off = hits.filter((h) => h.option === "nobarrier" || h.option === "barrier=0");
      return off.length > 0 ? { status: "warn", detail: `barriers off on ${pathsOf(off)}` } : { status: "ok" };
    },
  },
  // "keep the default (delalloc on)".
  delalloc: {
    matches: (o) => o === "delalloc" || o === "nodelalloc",
    judge: (hits) => {
      const off = hits.filter((h) => h.option === "nodelalloc");
      return off.length > 0 ? { status: "warn", detail: `delayed allocation off on ${pathsOf(off)}` } : { status: "ok" };
    },
  },
  // "keep the default data=ordered".
  "data=writeback": {
    matches: (o) => o.startsWith("data="),
    judge: (hits) => {
      const other = hits.filter((h) => h.option !== "data=ordered");
      return other.length > 0 ? { status: "warn", detail: "the guide recommends data=ordered" } : { status: "ok" };
    },
  },
};

function mountOptionValue(name: string, targets: TargetProfile[]): HostValue {
  const rule = MOUNT_RULES[name];
  const matches = rule?.matches ?? ((o: string) => o === name || o.startsWith(`${name}=`));
  const hits: MountHit[] = targets.flatMap((t) =>
    t.mountOptions.filter(matches).map((option) => ({ path: t.path, option })),
  );
  const text =
    hits.length === 0 ? "no" : hits.map((h) => (h.option === name ? `yes on ${h.path}` : `${h.option} on ${h.path}`)).join(", ");
  if (!rule) return { text, status: "info" };
  return { text, ...rule.judge(hits, targets) };
}

// ---------------------------------------------------------------------------

function sameSysctlValue(a: string, b: string): boolean {
  const na = a.trim().replace(/\s+/g, " ");
  const nb = b.trim().replace(/\s+/g, " ");
  if (na === nb) return true;
  const x = Number(na);
  const y = Number(nb);
  return na !== "" && nb !== "" && Number.isFinite(x) && Number.isFinite(y) && x === y;
}

function sysctlValue(name: string, recommended: string, profile: HostProfile): HostValue {
  // Some collectors key sysctls by their /proc/sys path (vm/dirty_ratio) rather than dotted.
  const raw = profile.sysctls[name] ?? profile.sysctls[name.replace(/\./g, "/")];
  if (raw === undefined) return { text: "not reported", status: "none" };
  const text = raw.trim().replace(/\s+/g, " ") || "(empty)";
  const detail =
    name === "vm.zone_reclaim_mode" && profile.numa.nodes !== null
      ? `${profile.numa.nodes} NUMA node${profile.numa.nodes === 1 ? "" : "s"}`
      : undefined;
  const expected = recommendedSysctlValue(recommended);
  if (expected === null) return { text, status: "info", detail };
  return { text, status: sameSysctlValue(raw, expected) ? "ok" : "warn", detail };
}

function thpValue(name: string, recommended: string, profile: HostProfile): HostValue {
  const raw = name.endsWith("defrag") ? profile.thp.defrag : profile.thp.enabled;
  if (raw === null) return { text: "not reported", status: "none" };
  const mode = activeThpMode(raw);
  const modes = recommendedThpModes(recommended);
  if (modes.length === 0) return { text: mode, status: "info" };
  if (mode === modes[0]) return { text: mode, status: "ok" };
  if (modes.includes(mode)) return { text: mode, status: "ok", detail: "an alternative the guide accepts" };
  return { text: mode, status: "warn" };
}

/** The host's value for one tunable, with a verdict against the (first) guide's recommendation. */
export function hostValueFor(
  tunable: { name: string; kind: TunableKind; recommended: string },
  profile: HostProfile,
): HostValue {
  const { name, kind, recommended } = tunable;
  if (name.includes("transparent_hugepage")) return thpValue(name, recommended, profile);
  if (kind === "sysctl") return sysctlValue(name, recommended, profile);
  if (kind === "mount-option") {
    if (profile.targets.length === 0) return { text: "not reported", status: "none" };
    return mountOptionValue(name, profile.targets);
  }
  // Commands and application config are not something a host profile records.
  return { text: "—", status: "none" };
}
