import { z } from "zod";
import type { PresetDef } from "../core/probe";
import { targetSchema } from "../core/schemas";

/** sar report flags: -B paging, -d disk (always with -p for device names), -r memory, -u CPU. */
export const SAR_SECTIONS = ["B", "d", "r", "u"] as const;
export type SarSection = (typeof SAR_SECTIONS)[number];

export const sarParamsSchema = z.object({
  // sar writes nothing; the target is only its working directory (and ties the run to a disk).
  target: targetSchema,
  sections: z
    .array(z.enum(SAR_SECTIONS))
    .min(1, "choose at least one section")
    .max(SAR_SECTIONS.length)
    .refine((s) => new Set(s).size === s.length, "sections must not repeat")
    .default(["B", "d", "r", "u"]),
  interval: z.number().int().min(1).max(3600).default(1),
  count: z.number().int().min(1).max(10000).default(10),
});

export type SarParams = z.infer<typeof sarParamsSchema>;

export const sarDefaults: Omit<SarParams, "target"> = { sections: ["B", "d", "r", "u"], interval: 1, count: 10 };

const preset = (sections: SarSection[]) => ({ sections, interval: 1, count: 10 });

export const sarPresets: Record<string, PresetDef<SarParams>> = {
  paging: { title: "Paging (sar -B)", description: "Page-ins/outs, faults, page scanning and %vmeff once a second for 10 s.", params: preset(["B"]) },
  disk: { title: "Disks (sar -d -p)", description: "Per-device transfers, throughput, queue size, await and %util once a second for 10 s.", params: preset(["d"]) },
  memory: { title: "Memory (sar -r)", description: "Free, available, cached, dirty and committed memory once a second for 10 s.", params: preset(["r"]) },
  cpu: { title: "CPU (sar -u)", description: "CPU time split into user, system, iowait, steal and idle once a second for 10 s.", params: preset(["u"]) },
  all: { title: "All four (sar -B -d -r -u)", description: "Paging, disks, memory and CPU together: run it while another probe writes.", params: preset(["B", "d", "r", "u"]) },
};
