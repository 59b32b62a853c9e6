import { z } from "zod";

/**
 * PostgreSQL text cannot hold NUL ("invalid byte sequence for encoding UTF8: 0x00"): a query value
 * with one reached the database and came back as a 500. Every API query is refused in handle()
 * (app/api/handle.ts) before its schema runs; pages that parse a query themselves use queryText.
 */
export const hasNul = (s: string) => s.includes("\u0000");

/** A free-text query filter: trimmed, at most `max` characters, never NUL (the message names it). */
export function queryText(name: string, max: number) {
  return z.string().trim().max(max, `${name} is at most ${max} characters.`).refine((s) => !hasNul(s), `${name} must not contain NUL characters.`);
}

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
