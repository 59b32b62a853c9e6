// Folding repeats: the runs of one repeat group, and more generally the runs of one configuration
// (same machine, probe, parameters, file system and medium), become one series drawn as a median
// with min–max whiskers. Imported output has no parameters ({}), so nothing says two imports
// measured the same thing: those fold only when they share a repeat group.
import type { CompareRun } from "./types";

/** JSON with object keys sorted at every level, so equal parameters give equal text. */
export function stableJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableJson).join(",")}]`;
  if (v && typeof v === "object") {
    return `{${Object.keys(v)
      .sort()
      .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${stableJson((v as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(v) ?? "null";
}

/** Runs with the same key are one configuration. */
export function foldKey(run: Pick<CompareRun, "id" | "probe" | "hostKey" | "params" | "fsType" | "medium" | "repeatGroup">): string {
  if (Object.keys(run.params).length === 0) return run.repeatGroup ? `group:${run.repeatGroup}` : `run:${run.id}`;
  return ["config", run.probe, run.hostKey, run.fsType ?? "", run.medium ?? "", stableJson(run.params)].join("|");
}

/** Series of runs in order of first appearance; with fold=false every run is its own series. */
export function foldRuns<T extends Pick<CompareRun, "id" | "probe" | "hostKey" | "params" | "fsType" | "medium" | "repeatGroup">>(
  runs: readonly T[],
  fold: boolean,
): T[][] {
  if (!fold) return runs.map((r) => [r]);
  const groups = new Map<string, T[]>();
  // A repeat group folds as a whole even if, say, one repeat's fs type was not recorded.
  const groupKeys = new Map<string, string>();
  for (const r of runs) {
    let key = foldKey(r);
    if (r.repeatGroup) {
      const known = groupKeys.get(r.repeatGroup);
      if (known) key = known;
      else groupKeys.set(r.repeatGroup, key);
    }
    const list = groups.get(key);
    if (list) list.push(r);
    else groups.set(key, [r]);
  }
  return [...groups.values()];
}

/**
 * Same machine, probe, file system, medium and parameters apart from `notSetup` (those that only
 * say how a run was driven, e.g. its direction): the runs of one setup.
 */
export function setupKey(run: Pick<CompareRun, "probe" | "hostKey" | "params" | "fsType" | "medium">, notSetup: readonly string[]): string {
  const rest = Object.fromEntries(Object.entries(run.params).filter(([k]) => !notSetup.includes(k)));
  return [run.probe, run.hostKey, run.fsType ?? "", run.medium ?? "", stableJson(rest)].join("|");
}

/**
 * Some probes measure one side of a setup per run (a write or a read), and their chart groups
 * bars by side: the runs of each side of one setup become one series (a bar in each group) when
 * each side has one configuration. Groups whose side is unknown (`sideOf` null, e.g. imports)
 * stay as they are.
 */
export function pairSides<T>(groups: readonly T[][], sideOf: (run: T) => { side: string; setup: string } | null): T[][] {
  const out: { key: string; sides: Set<string>; runs: T[] }[] = [];
  for (const g of groups) {
    const first = g[0];
    const at = first === undefined ? null : sideOf(first);
    if (!at) {
      out.push({ key: "", sides: new Set(), runs: [...g] });
      continue;
    }
    const mate = out.find((o) => o.key === at.setup && !o.sides.has(at.side));
    if (mate) {
      mate.sides.add(at.side);
      mate.runs.push(...g);
    } else out.push({ key: at.setup, sides: new Set([at.side]), runs: [...g] });
  }
  return out.map((o) => o.runs);
}
