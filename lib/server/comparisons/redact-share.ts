// What a public share may reveal about the hosts, chosen by the sharer. The defaults hide host
// names and file-system paths: a share link travels further than its author expects.
import { z } from "zod";
import { labelRuns } from "../../compare/label";
import type { CompareRun } from "../../compare/types";

export const shareIncludeSchema = z
  .object({
    /** Registered host names, import labels and the OS hostname. */
    hostnames: z.boolean().default(false),
    /** Target directories, mount points and mount sources. */
    paths: z.boolean().default(false),
    /** Kernel release and distribution. */
    kernel: z.boolean().default(true),
  })
  .default({ hostnames: false, paths: false, kernel: true });
export type ShareInclude = z.infer<typeof shareIncludeSchema>;

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | null => (v && typeof v === "object" && !Array.isArray(v) ? (v as Obj) : null);
const looksLikePath = (v: unknown) => typeof v === "string" && v.startsWith("/");

function redactProfile(profile: Obj | null, include: ShareInclude): Obj | null {
  if (!profile) return null;
  const out: Obj = { ...profile };
  if (!include.hostnames) delete out.hostname;
  if (!include.kernel) {
    delete out.kernel;
    delete out.distro;
  }
  const target = obj(out.target);
  if (target && !include.paths) {
    const t: Obj = {};
    for (const [k, v] of Object.entries(target)) if (!["path", "mountPoint", "source"].includes(k) && !looksLikePath(v)) t[k] = v;
    out.target = t;
  }
  return out;
}

function redactParams(params: Obj, include: ShareInclude): Obj {
  if (include.paths) return params;
  return Object.fromEntries(Object.entries(params).filter(([, v]) => !looksLikePath(v)));
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
  const redacted = runs.map((r) => {
    const keepName = include.hostnames || r.origin === "REFERENCE";
    const hostName = keepName ? r.hostName : alias(r.hostKey);
    return {
      ...r,
      hostName,
      hostKey: keepName ? r.hostKey : `alias:${hostName}`,
      params: redactParams(r.params, include),
      profile: redactProfile(r.profile, include),
    };
  });
  const labels = labelRuns(redacted.map((r) => ({ origin: r.origin, params: r.params, hostName: r.hostName, medium: r.medium, fsType: r.fsType, createdAt: r.createdAt })));
  return redacted.map((r, i) => ({ ...r, label: labels[i]! }));
}
