// A run's note limit, without zod: the note editor (a client component) counts against it and the
// PATCH schema (lib/api/schemas/tags.ts) enforces it, with the same words.

export const MAX_NOTES = 5000;

/** The refusal for a note over the limit, naming the field and how far over it is; null when it fits. */
export function noteTooLong(note: string): string | null {
  return note.length > MAX_NOTES ? `Note: at most ${MAX_NOTES.toLocaleString("en")} characters; this one has ${note.length.toLocaleString("en")}.` : null;
}
