import { z } from "zod";
import { err, defineOperation } from "./operation";
import { createdHostSchema, createHostSchema, hostDetailSchema, hostSchema } from "./schemas/hosts";

const group = "Hosts";

/** /api/hosts: the machines whose agents run probes. */
export const hostsApi = {
  list: defineOperation({
    method: "get",
    path: "/api/hosts",
    group,
    summary: "List hosts with what their agents reported",
    role: "viewer",
    responses: { 200: { description: "Every host by name.", json: z.object({ hosts: z.array(hostSchema) }) } },
  }),
  create: defineOperation({
    method: "post",
    path: "/api/hosts",
    group,
    summary: "Add a host and get its one-time registration token",
    role: "operator",
    body: createHostSchema,
    responses: {
      201: { description: "Start the agent on the host with this token within 24 hours.", json: createdHostSchema },
      400: err("The name is invalid."),
      429: err("Too many hosts or pending registrations."),
    },
  }),
  get: defineOperation({
    method: "get",
    path: "/api/hosts/{id}",
    group,
    summary: "One host",
    role: "viewer",
    idOf: "host",
    responses: { 200: { description: "The host with its medium overrides.", json: hostDetailSchema } },
  }),
  delete: defineOperation({
    method: "delete",
    path: "/api/hosts/{id}",
    group,
    summary: "Delete a host; its runs and experiments stay, marked as from a removed host",
    description:
      "Queued and running runs of the host end as cancelled and its running experiments end with them; its agent's credential stops working at once, except to deliver the setup report of an experiment run it had in flight. Audited as host.delete with these counts.",
    role: "operator",
    authNote: "whoever added it or an admin",
    idOf: "host",
    responses: {
      200: {
        description: "Deleted: what was kept and what was ended.",
        json: z.object({
          deleted: z.string().uuid(),
          runsKept: z.number().int(),
          runsCancelled: z.number().int(),
          runsInFlight: z.number().int().describe("Runs its agent was running at that moment (among runsCancelled)."),
          experimentsKept: z.number().int(),
          experimentsEnded: z.number().int().describe("Experiments still running, ended by the removal (among experimentsKept)."),
        }),
      },
    },
  }),
};
