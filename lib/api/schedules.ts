import { z } from "zod";
import { err, defineOperation } from "./operation";
import { createScheduleSchema, scheduleDetailSchema, scheduleSchema, updateScheduleSchema } from "./schemas/schedules";

const group = "Schedules";
const uuid = z.string().uuid();
const pausedAnswer = z.object({ paused: z.boolean(), nextFireAt: z.string().nullable() });

/** /api/schedules: a probe preset or an experiment template fired on hosts at an interval or by cron. */
export const schedulesApi = {
  list: defineOperation({
    method: "get",
    path: "/api/schedules",
    group,
    summary: "List schedules by name, with when each fires next",
    role: "viewer",
    responses: { 200: { description: "The schedules.", json: z.object({ schedules: z.array(scheduleSchema) }) } },
  }),
  create: defineOperation({
    method: "post",
    path: "/api/schedules",
    group,
    summary: "Create a schedule: a probe with a preset and parameters (or an experiment template) on hosts, every N minutes or by a five-field cron expression in a time zone",
    description:
      "Each host must admit the run now (allowed directories, tool, free space); an offline host at a due time is recorded as MISSED_OFFLINE, a busy one (skipIfBusy) as SKIPPED_BUSY, quiet hours as SKIPPED_QUIET. After an outage only the latest missed due time fires.",
    role: "operator",
    body: createScheduleSchema,
    maxBodyBytes: 64 * 1024,
    responses: {
      201: { description: "Created.", json: z.object({ id: uuid }) },
      400: err("Invalid fields (fieldErrors names them: cron, intervalMinutes, timezone, quietEnd, hostIds, preset, params.target with the host that refuses it)."),
    },
  }),
  get: defineOperation({
    method: "get",
    path: "/api/schedules/{id}",
    group,
    summary: "One schedule with its last 50 firings (host, due time, outcome, run or experiment)",
    role: "viewer",
    idOf: "schedule",
    responses: { 200: { description: "The schedule.", json: scheduleDetailSchema } },
  }),
  update: defineOperation({
    method: "patch",
    path: "/api/schedules/{id}",
    group,
    summary: "Change a schedule (any field of the create body, and paused); its next due time is computed afresh",
    description: "Giving cron clears intervalMinutes and the other way round. Operators change their own schedules, admins any.",
    role: "operator",
    idOf: "schedule",
    body: updateScheduleSchema,
    maxBodyBytes: 64 * 1024,
    responses: {
      200: { description: "Changed.", json: z.object({ id: uuid }) },
      400: err("Invalid fields (fieldErrors names them)."),
    },
  }),
  delete: defineOperation({
    method: "delete",
    path: "/api/schedules/{id}",
    group,
    summary: "Delete a schedule and its firings log (the runs it queued stay)",
    role: "operator",
    idOf: "schedule",
    responses: { 200: { description: "Deleted.", json: z.object({ deleted: uuid }) } },
  }),
  pause: defineOperation({
    method: "post",
    path: "/api/schedules/{id}/pause",
    group,
    summary: "Pause a schedule: nothing fires until it is resumed",
    role: "operator",
    idOf: "schedule",
    responses: { 200: { description: "Paused.", json: pausedAnswer } },
  }),
  resume: defineOperation({
    method: "post",
    path: "/api/schedules/{id}/resume",
    group,
    summary: "Resume a schedule from its next due time after now (times missed while paused are not made up)",
    role: "operator",
    idOf: "schedule",
    responses: { 200: { description: "Resumed.", json: pausedAnswer } },
  }),
};
