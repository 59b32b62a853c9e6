import { z } from "zod";
import { MAX_NOTES, noteTooLong } from "../../run-note";

export { MAX_NOTES };

// Tags and notes of a run: PATCH /api/runs/{id}, the runs filter and the run page share them.

/** How many tags a run may carry and how long one may be: labels, not prose (the note is prose). */
export const MAX_TAGS = 12;
export const MAX_TAG_LENGTH = 32;

/** Lower-case letters, digits and `. _ : + -`, starting with a letter or digit: safe in URLs and CSV. */
export const TAG_RE = /^[a-z0-9][a-z0-9._:+-]*$/;

export const tagSchema = z
  .string()
  .trim()
  .toLowerCase()
  .min(1, "A tag must not be empty.")
  .max(MAX_TAG_LENGTH, `A tag has at most ${MAX_TAG_LENGTH} characters.`)
  .regex(TAG_RE, "A tag uses lower-case letters, digits and . _ : + - and starts with a letter or digit.");

export const tagsSchema = z
  .array(tagSchema)
  .max(MAX_TAGS, `At most ${MAX_TAGS} tags per run.`)
  .transform((tags) => [...new Set(tags)].sort());

export const updateRunSchema = z
  .object({
    tags: tagsSchema.optional().describe("Replaces the run's tags."),
    notes: z
      .string()
      .max(MAX_NOTES, { error: (iss) => noteTooLong(String(iss.input)) ?? undefined })
      .refine((s) => !s.includes("\u0000"), "A note must not contain NUL characters.")
      .nullable()
      .optional()
      .describe("Free text; an empty string or null clears it."),
  })
  .strict()
  .refine((b) => b.tags !== undefined || b.notes !== undefined, { message: "Give tags, notes or both." });
export type UpdateRunInput = z.infer<typeof updateRunSchema>;
