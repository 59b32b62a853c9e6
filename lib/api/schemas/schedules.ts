// The bodies and answers of /api/schedules: a preset, saved parameters or an experiment template
// fired on hosts at an interval or a cron expression (lib/server/schedules).
import { z } from "zod";
import { uuidSchema } from "../../http/params";

const hhmm = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, "Use a 24-hour time as HH:MM, e.g. 22:00.");

/** What a schedule fires; `preset` and `params` as in POST /api/runs (params override the preset). */
const scheduleFields = {
  name: z.string().trim().min(1, "Give the schedule a name.").max(100, "Names are at most 100 characters."),
  hostIds: z.array(uuidSchema("hostIds must be host ids")).min(1, "Pick at least one host.").max(500, "At most 500 hosts per schedule."),
  kind: z.enum(["run", "experiment"]).default("run"),
  probe: z.string().min(1, "Pick a probe.").max(50),
  preset: z.string().min(1).max(100).optional(),
  /** kind run: the probe's parameters (target included). kind experiment: the POST /api/experiments body without hostId. */
  params: z.record(z.string(), z.unknown()).default({}),
  /** Exactly one of cron and intervalMinutes. */
  cron: z.string().trim().min(1).max(120).optional().describe("Five fields (minute hour day-of-month month day-of-week), in `timezone`."),
  intervalMinutes: z.number().int().min(1, "The shortest interval is 1 minute.").max(7 * 24 * 60, "The longest interval is a week (10080 minutes).").optional(),
  timezone: z.string().min(1).max(64).default("UTC").describe("An IANA time zone, e.g. Europe/Berlin: for cron and quiet hours."),
  jitterSeconds: z.number().int().min(0).max(3600, "Jitter is at most 3600 s.").default(0),
  skipIfBusy: z.boolean().default(true).describe("Skip a host that has a run queued or running at the due time."),
  quietStart: hhmm.optional(),
  quietEnd: hhmm.optional(),
};

export const createScheduleSchema = z.object(scheduleFields).strict();
export type CreateScheduleInput = z.infer<typeof createScheduleSchema>;

/** PATCH: any field of the create body, plus paused. */
export const updateScheduleSchema = z
  .object({
    name: scheduleFields.name.optional(),
    hostIds: scheduleFields.hostIds.optional(),
    preset: z.string().min(1).max(100).nullable().optional(),
    params: z.record(z.string(), z.unknown()).optional(),
    cron: z.string().trim().min(1).max(120).nullable().optional(),
    intervalMinutes: z.number().int().min(1, "The shortest interval is 1 minute.").max(7 * 24 * 60).nullable().optional(),
    timezone: z.string().min(1).max(64).optional(),
    jitterSeconds: z.number().int().min(0).max(3600, "Jitter is at most 3600 s.").optional(),
    skipIfBusy: z.boolean().optional(),
    quietStart: hhmm.nullable().optional(),
    quietEnd: hhmm.nullable().optional(),
    paused: z.boolean().optional(),
  })
  .strict();
export type UpdateScheduleInput = z.infer<typeof updateScheduleSchema>;

export const firingOutcomeSchema = z.enum(["QUEUED", "MISSED_OFFLINE", "SKIPPED_BUSY", "SKIPPED_QUIET", "REFUSED"]);

export const scheduleFiringSchema = z
  .object({
    id: z.string().uuid(),
    hostId: z.string().uuid().nullable(),
    hostName: z.string().nullable(),
    dueAt: z.string(),
    firedAt: z.string(),
    outcome: firingOutcomeSchema,
    runId: z.string().uuid().nullable(),
    experimentId: z.string().uuid().nullable(),
    message: z.string().nullable(),
  })
  .meta({ id: "ScheduleFiring" });

export const scheduleSchema = z
  .object({
    id: z.string().uuid(),
    name: z.string(),
    kind: z.enum(["run", "experiment"]),
    hosts: z.array(z.object({ id: z.string().uuid(), name: z.string().nullable() })),
    probe: z.string(),
    preset: z.string().nullable(),
    params: z.record(z.string(), z.unknown()),
    cron: z.string().nullable(),
    intervalMinutes: z.number().int().nullable(),
    timezone: z.string(),
    jitterSeconds: z.number().int(),
    skipIfBusy: z.boolean(),
    quietStart: z.string().nullable(),
    quietEnd: z.string().nullable(),
    paused: z.boolean(),
    nextFireAt: z.string().nullable(),
    lastFiredAt: z.string().nullable(),
    /** In words: "every 15 minutes", "cron 0 3 * * * (Europe/Berlin)". */
    describe: z.string(),
    createdById: z.string().uuid().nullable(),
    createdAt: z.string(),
  })
  .meta({ id: "Schedule" });

export const scheduleDetailSchema = scheduleSchema.extend({ firings: z.array(scheduleFiringSchema) });
