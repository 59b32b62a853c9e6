import { ddPresets } from "./params";

export type DdDirection = "write" | "read" | "unknown direction";

/**
 * Which way a dd run moved data: its params.mode when launched (the catalog fills the default),
 * else the mode of the preset it names, else unknown — imported dd output has params {} and dd's
 * summary line does not say whether it wrote or read.
 */
export function ddDirection(params: unknown): DdDirection {
  if (params && typeof params === "object") {
    const p = params as Record<string, unknown>;
    if (p.mode === "write" || p.mode === "read") return p.mode;
    if (typeof p.preset === "string") {
      const [probe, id] = p.preset.includes(":") ? p.preset.split(":", 2) : ["dd", p.preset];
      const mode = probe === "dd" && id && Object.hasOwn(ddPresets, id) ? ddPresets[id]!.params.mode : undefined;
      if (mode === "write" || mode === "read") return mode;
    }
  }
  return "unknown direction";
}
