// The bodies and answers of /api/hosts; the host form's action checks names with the same schema.
import { z } from "zod";
import { capabilitiesSchema } from "../../../probes/protocol/schemas";

export const hostNameSchema = z
  .string()
  .trim()
  .min(1, "Give the host a name.")
  .max(100, "Host names are at most 100 characters.")
  .regex(/^[\p{L}\p{N} ._:@()-]+$/u, "Use letters, digits, spaces and . _ - : @ ( ) only.");

export const createHostSchema = z.object({ name: hostNameSchema });

export const hostSchema = z
  .object({
    id: z.string().uuid(),
    name: z.string(),
    lastSeenAt: z.string().nullable(),
    agentRegisteredAt: z.string().nullable(),
    createdAt: z.string(),
    capabilities: capabilitiesSchema.nullable().describe("What the agent last reported: tools, allowed directories."),
    profile: z.record(z.string(), z.unknown()).nullable().describe("The host profile the agent last sent."),
    toolsCheckedAt: z.string().nullable().describe("When the agent last reported its tools."),
    toolsRecheckRequestedAt: z.string().nullable().describe("When an operator last asked for a re-check."),
    agentVersion: z.string().nullable().describe("The agent release as it last reported it (register, or its last start)."),
    agentOutdated: z.boolean().describe("The agent is older than the release this server ships: the installer's --upgrade replaces it."),
  })
  .meta({ id: "Host" });

/** GET /api/hosts/{id}: the host with what only its page needs. */
export const hostDetailSchema = hostSchema.extend({
  mediumOverrides: z.record(z.string(), z.string()),
  registrationExpiresAt: z.string().nullable(),
  createdById: z.string().uuid().nullable(),
});

export const createdHostSchema = z.object({ id: z.string().uuid(), name: z.string(), registrationToken: z.string(), expiresAt: z.string().nullable() });
