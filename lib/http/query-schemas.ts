import { z } from "zod";

/** `?format=csv|json` of the export routes. */
export const exportFormatQuerySchema = z.object({
  format: z.enum(["csv", "json"], { error: "format must be csv or json." }).default("json"),
});

/**
 * `?after=<seq>` of the live-output stream (the Last-Event-ID header wins when both are sent). A
 * value that is not a seq replays from the start rather than refusing the stream.
 */
export const runEventsQuerySchema = z.object({
  after: z.coerce.number().int().min(-1).default(-1).catch(-1).describe("Replay chunks with a seq above this one."),
});

/** `?runs=<id>,<id>,…&format=` of the unsaved comparison export. */
export const comparisonPreviewQuerySchema = exportFormatQuerySchema.extend({
  runs: z.string().describe("Run ids separated by commas, at most 30 (the parameter may also repeat)."),
});
