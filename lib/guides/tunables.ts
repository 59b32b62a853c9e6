/**
 * The tunables index: every sysctl, mount option, command and config setting named in a guide's
 * frontmatter, merged by name across guides (numactl --interleave=all, taskset and fallocate are
 * each discussed by two guides, with advice worded for that guide's workload).
 */
import type { Guide } from "@/content/load";
import type { Tunable } from "@/content/schema";
import { tunableAnchor } from "./format";

export type TunableKind = Tunable["kind"];

export interface TunableAdvice {
  guide: { slug: string; title: string };
  recommended: string;
  why: string;
}

export interface TunableEntry {
  name: string;
  anchor: string;
  kind: TunableKind;
  /** One item per guide that names the tunable, in guide order. */
  advice: TunableAdvice[];
}

/** Kernel settings first, then what you set at mount time, then application config, then commands. */
const KIND_ORDER: Record<TunableKind, number> = { sysctl: 0, "mount-option": 1, config: 2, command: 3 };

export const KIND_LABELS: Record<TunableKind, string> = {
  sysctl: "sysctl",
  "mount-option": "mount option",
  config: "config",
  command: "command",
};

/** The index, sorted by kind, then name (case-insensitive). `guides` must be in guide order. */
export function buildTunableIndex(guides: readonly Guide[]): TunableEntry[] {
  const byName = new Map<string, TunableEntry>();
  for (const guide of guides) {
    for (const t of guide.frontmatter.tunables) {
      let entry = byName.get(t.name);
      if (!entry) {
        entry = { name: t.name, anchor: tunableAnchor(t.name), kind: t.kind, advice: [] };
        byName.set(t.name, entry);
      }
      // A guide listing the same tunable twice would only repeat itself.
      if (entry.advice.some((a) => a.guide.slug === guide.slug)) continue;
      entry.advice.push({
        guide: { slug: guide.slug, title: guide.frontmatter.title },
        recommended: t.recommended,
        why: t.why,
      });
    }
  }
  return [...byName.values()].sort(
    (a, b) => KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || a.name.localeCompare(b.name, "en", { sensitivity: "base" }),
  );
}
