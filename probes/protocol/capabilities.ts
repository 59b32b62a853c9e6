// What an agent reports about its host: installed tools, allowed directories, and the profile.
import { z } from "zod";

export const toolCapabilitySchema = z.object({
  installed: z.boolean(),
  version: z.string().max(200).nullable(),
  path: z.string().max(4096).nullable(),
});

export const capabilitiesSchema = z.object({
  agentVersion: z.string().max(50),
  tools: z.record(z.string().max(20), toolCapabilitySchema),
  allowedDirs: z.array(z.string().max(4096)).max(64),
});
export type Capabilities = z.infer<typeof capabilitiesSchema>;

/** Host profiles are free-form JSON collected by probes/profile; bounded in size, not in shape. */
export const profileSchema = z.record(z.string(), z.unknown());
