import { z } from "zod";
import { createHostSchema } from "../../../server/hosts/create-host";
import { capabilitiesSchema } from "../../../../probes/protocol/schemas";
import { authErrors, err } from "../common";
import type { ApiOperation } from "../types";

const hostSchema = z
  .object({
    id: z.string().uuid(),
    name: z.string(),
    lastSeenAt: z.string().nullable(),
    agentRegisteredAt: z.string().nullable(),
    createdAt: z.string(),
    capabilities: capabilitiesSchema.nullable().describe("What the agent last reported: tools, allowed directories."),
    profile: z.record(z.string(), z.unknown()).nullable().describe("The host profile the agent last sent."),
  })
  .meta({ id: "Host" });

export const hostOperations: ApiOperation[] = [
  {
    method: "get",
    path: "/api/hosts",
    group: "Hosts",
    summary: "List hosts with what their agents reported",
    auth: "viewer",
    responses: { 200: { description: "Every host by name.", schema: z.object({ hosts: z.array(hostSchema) }) }, ...authErrors },
  },
  {
    method: "post",
    path: "/api/hosts",
    group: "Hosts",
    summary: "Add a host and get its one-time registration token",
    auth: "operator",
    body: createHostSchema,
    responses: {
      201: {
        description: "Start the agent on the host with this token within 24 hours.",
        schema: z.object({ id: z.string().uuid(), name: z.string(), registrationToken: z.string(), expiresAt: z.string() }),
      },
      400: err("The name is invalid."),
      429: err("Too many hosts or pending registrations."),
      ...authErrors,
    },
  },
  {
    method: "get",
    path: "/api/hosts/{id}",
    group: "Hosts",
    summary: "One host",
    auth: "viewer",
    responses: { 200: { description: "The host with its medium overrides.", schema: hostSchema.extend({ mediumOverrides: z.record(z.string(), z.string()), registrationExpiresAt: z.string().nullable(), createdById: z.string().uuid().nullable() }) }, 404: err("No such host."), ...authErrors },
  },
  {
    method: "delete",
    path: "/api/hosts/{id}",
    group: "Hosts",
    summary: "Delete a host; its runs stay, marked as from a removed host",
    description: "Queued and running runs of the host end as cancelled; its agent's credential stops working at once.",
    auth: "operator",
    authNote: "whoever added it or an admin",
    responses: {
      200: { description: "Deleted.", schema: z.object({ deleted: z.string().uuid(), runsKept: z.number().int(), runsCancelled: z.number().int() }) },
      404: err("No such host."),
      ...authErrors,
    },
  },
];
