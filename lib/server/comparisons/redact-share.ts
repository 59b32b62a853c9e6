// What a public share may reveal about the hosts, chosen by the sharer. The defaults hide host
// names and file-system paths: a share link travels further than its author expects.
import type { ShareInclude } from "../../api/schemas/comparisons";
import { labelRuns } from "../../compare/label";
import type { CompareRun } from "../../compare/types";

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | null => (v && typeof v === "object" && !Array.isArray(v) ? (v as Obj) : null);
const looksLikePath = (v: unknown) => typeof v === "string" && v.startsWith("/");

/**
 * Hidden paths become "path 1", "path 2" … one name per distinct path across the comparison, so
 * runs on different directories still fold apart and "what differs" still sees the difference.
 */
type PathAlias = (path: string) => string;

function redactProfile(profile: Obj | null, include: ShareInclude, alias: PathAlias): Obj | null {
  if (!profile) return null;
  const out: Obj = { ...profile };
  if (!include.hostnames) delete out.hostname;
  if (!include.kernel) {
    delete out.kernel;
    delete out.distro;
  }
  const target = obj(out.target);
  if (target && !include.paths) {
    out.target = Object.fromEntries(Object.entries(target).map(([k, v]) => [k, looksLikePath(v) ? alias(v as string) : v]));
  }
  return out;
}

function redactParams(params: Obj, include: ShareInclude, alias: PathAlias): Obj {
  if (include.paths) return params;
  return Object.fromEntries(Object.entries(params).map(([k, v]) => [k, looksLikePath(v) ? alias(v as string) : v]));
}

/**
 * The runs as the share will publish them. Hidden host names become "host A", "host B" … (one
 * letter per machine, so folding and "what differs" still work) and the labels are rebuilt from
 * the redacted facts; reference runs keep their label, which names a public article.
 */
export function redactForShare(runs: readonly CompareRun[], include: ShareInclude): CompareRun[] {
  const aliases = new Map<string, string>();
  const alias = (key: string) => {
    if (!aliases.has(key)) {
      const n = aliases.size;
      aliases.set(key, `host ${n < 26 ? String.fromCharCode(65 + n) : n + 1}`);
    }
    return aliases.get(key)!;
  };
  const paths = new Map<string, string>();
  const pathAlias: PathAlias = (p) => {
    if (!paths.has(p)) paths.set(p, `path ${paths.size + 1}`);
    return paths.get(p)!;
  };
  const redacted = runs.map((r) => {
    const keepName = include.hostnames || r.origin === "REFERENCE";
    const hostName = keepName ? r.hostName : alias(r.hostKey);
    return {
      ...r,
      hostName,
      hostKey: keepName ? r.hostKey : `alias:${hostName}`,
      params: redactParams(r.params, include, pathAlias),
      profile: redactProfile(r.profile, include, pathAlias),
      // A flag's evidence is free text that may name a device or a directory: a share keeps what
      // was found (code and title) and drops the evidence unless paths may be shown.
      ...(r.flags ? { flags: r.flags.map((f) => ({ ...f, evidence: include.paths ? f.evidence : "" })) } : {}),
    };
  });
  const labels = labelRuns(redacted.map((r) => ({ origin: r.origin, params: r.params, hostName: r.hostName, medium: r.medium, fsType: r.fsType, createdAt: r.createdAt })));
  return redacted.map((r, i) => ({ ...r, label: labels[i]! }));
}
