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

/** dd parameters that only say which way the data went (or a write detail): not part of a dd "setup". */
const DD_DIRECTION_PARAMS = new Set(["mode", "fdatasync", "keepFile", "preset"]);

/** Same machine, target, size, block size and direct flag: a dd write and a dd read of one setup. */
export function ddSetupKey(run: Pick<CompareRun, "probe" | "hostKey" | "params" | "fsType" | "medium">): string {
  const rest = Object.fromEntries(Object.entries(run.params).filter(([k]) => !DD_DIRECTION_PARAMS.has(k)));
  return ["dd", run.hostKey, run.fsType ?? "", run.medium ?? "", stableJson(rest)].join("|");
}

/**
 * dd measures one direction per run, and its chart groups bars by direction: the write runs and
 * the read runs of one setup become one series (a bar in each group) when each direction has one
 * configuration. Groups of unknown direction (imports) stay as they are.
 */
export function pairDdDirections<T extends Pick<CompareRun, "probe" | "hostKey" | "params" | "fsType" | "medium">>(
  groups: readonly T[][],
  directionOf: (run: T) => string,
): T[][] {
  const out: { key: string; dirs: Set<string>; runs: T[] }[] = [];
  for (const g of groups) {
    const first = g[0];
    const dir = first ? directionOf(first) : "";
    if (!first || first.probe !== "dd" || (dir !== "write" && dir !== "read") || Object.keys(first.params).length === 0) {
      out.push({ key: "", dirs: new Set(), runs: [...g] });
      continue;
    }
    const key = ddSetupKey(first);
    const mate = out.find((o) => o.key === key && !o.dirs.has(dir));
    if (mate) {
      mate.dirs.add(dir);
      mate.runs.push(...g);
    } else out.push({ key, dirs: new Set([dir]), runs: [...g] });
  }
  return out.map((o) => o.runs);
}
