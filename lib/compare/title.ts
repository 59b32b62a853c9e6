import type { ComparisonModel } from "./types";

/** A title to start from when sharing: "<probe>: ext3 vs ext4 vs xfs", else "<probe>: 20 series compared". */
export function suggestTitle(model: Pick<ComparisonModel, "series" | "sections" | "differs">): string {
  const probes = model.sections.map((s) => s.probe).join(" + ") || "runs";
  const field = model.differs.fields.find((f) => f.id !== "target" && f.id !== "mountOptions" && f.id !== "params");
  if (field) {
    const values = [...new Set(Object.values(field.values).filter((v): v is string => v !== null))];
    const text = `${probes}: ${values.join(" vs ")}${field.id === "fsType" || field.id === "medium" ? "" : ` (${field.label.toLowerCase()})`}`;
    if (text.length <= 200) return text;
  }
  return `${probes}: ${model.series.length} ${model.series.length === 1 ? "series" : "series compared"}`;
}
