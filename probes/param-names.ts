// Which parameter names a probe knows. Its zod schema strips unknown keys when it parses (an
// older agent must still accept what a newer server sends), so a mistyped name such as
// `sizemib` would vanish and the preset's size would run instead: the API and the CLI refuse
// such names up front, naming the close match.
import { z } from "zod";
import { getProbe } from "./catalog";

/** The names a probe's parameter schema declares, in its order ([] for an unknown probe). */
export function paramNames(probeId: string): string[] {
  const schema = getProbe(probeId)?.paramsSchema;
  return schema instanceof z.ZodObject ? Object.keys(schema.shape) : [];
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length]!;
}

/** The known name closest to a mistyped one: the same letters in another case, else at most two edits away. */
export function closestName(wrong: string, names: readonly string[]): string | undefined {
  const lower = wrong.toLowerCase();
  const sameLetters = names.find((n) => n.toLowerCase() === lower);
  if (sameLetters) return sameLetters;
  let best: { name: string; d: number } | undefined;
  for (const name of names) {
    const d = editDistance(lower, name.toLowerCase());
    if (d <= 2 && (!best || d < best.d)) best = { name, d };
  }
  return best?.name;
}

/**
 * One message per key of `params` the probe does not know, keyed by that name:
 * "unknown parameter sizemib (did you mean sizeMiB?); valid: target, sizeMiB, …".
 */
export function unknownParamErrors(probeId: string, params: Record<string, unknown>): Record<string, string> {
  const names = paramNames(probeId);
  if (names.length === 0) return {};
  const out: Record<string, string> = {};
  for (const key of Object.keys(params)) {
    if (names.includes(key)) continue;
    const close = closestName(key, names);
    out[key] = `unknown parameter ${key}${close ? ` (did you mean ${close}?)` : ""}; valid: ${names.join(", ")}`;
  }
  return out;
}
