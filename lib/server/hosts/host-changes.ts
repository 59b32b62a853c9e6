import { labCapabilitySchema, tunablesCapabilitySchema } from "../../../probes/protocol/schemas";
import { z } from "zod";

/** What the host's agent lets experiments change, and what an experiment has left changed. */
export interface HostChanges {
  lab: z.infer<typeof labCapabilitySchema> | null;
  tunables: z.infer<typeof tunablesCapabilitySchema> | null;
  /** Settings a journal says are changed right now (an arm running, or not yet restored). */
  changedNow: { name: string; device: string | null; value: string | null; from: string }[];
}

// Read on their own, so that an older agent's capabilities (without them) still show the rest.
const partSchema = z.object({
  lab: labCapabilitySchema.nullable().optional().catch(null),
  tunables: tunablesCapabilitySchema.nullable().optional().catch(null),
});

/** From the capabilities the agent last reported (start, each arm's end, each re-check). */
export function hostChanges(capabilities: unknown): HostChanges {
  const parsed = partSchema.safeParse(capabilities ?? {});
  const lab = parsed.success ? (parsed.data.lab ?? null) : null;
  const tunables = parsed.success ? (parsed.data.tunables ?? null) : null;
  const changedNow = (tunables?.current ?? []).flatMap((t) => (t.changedFrom === null ? [] : [{ name: t.name, device: t.device, value: t.value, from: t.changedFrom }]));
  return { lab, tunables, changedNow };
}
