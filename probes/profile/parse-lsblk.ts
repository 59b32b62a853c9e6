import { cleanString, isRecord, parseJsonSafe, toCount } from "./json";

export interface LsblkDevice {
  name: string;
  model: string | null;
  sizeBytes: number;
  rotational: boolean | null;
  type: string;
}

/** util-linux ≥ 2.33 prints ROTA as a JSON boolean, older releases as "0"/"1". */
function toRotational(value: unknown): boolean | null {
  if (typeof value === "boolean") return value;
  if (value === "1" || value === 1) return true;
  if (value === "0" || value === 0) return false;
  return null;
}

/**
 * Reads `lsblk -J -b -d -o NAME,MODEL,SIZE,ROTA,TYPE`: whole devices only (-d), sizes in bytes
 * (-b). Entries without a name are skipped; a size that is not a byte count becomes 0.
 */
export function parseLsblkJson(text: string): LsblkDevice[] {
  const root = parseJsonSafe(text);
  if (!isRecord(root) || !Array.isArray(root.blockdevices)) return [];
  const out: LsblkDevice[] = [];
  for (const dev of root.blockdevices) {
    if (!isRecord(dev)) continue;
    const name = cleanString(dev.name);
    if (name === null) continue;
    out.push({
      name,
      model: cleanString(dev.model),
      sizeBytes: toCount(dev.size) ?? 0,
      rotational: toRotational(dev.rota),
      type: cleanString(dev.type) ?? "unknown",
    });
  }
  return out;
}
