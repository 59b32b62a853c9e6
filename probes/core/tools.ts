// The one list of tools. `Tool`, every zod enum of tools and every list of tools in the app
// derive from this tuple; the registry (probes/catalog.ts) maps each id to its probe.
export const TOOL_IDS = ["iozone", "dd", "sar", "fio"] as const;

export type Tool = (typeof TOOL_IDS)[number];

export function isTool(id: unknown): id is Tool {
  return typeof id === "string" && (TOOL_IDS as readonly string[]).includes(id);
}
