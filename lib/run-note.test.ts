import { describe, expect, it } from "vitest";
import { updateRunSchema } from "./api/schemas/tags";
import { MAX_NOTES, noteTooLong } from "./run-note";

describe("a run's note limit", () => {
  it("refuses a note over 5,000 characters naming the field and the count, and keeps one at the limit whole", () => {
    expect(noteTooLong("x".repeat(MAX_NOTES))).toBeNull();
    expect(noteTooLong("x".repeat(MAX_NOTES + 1))).toBe("Note: at most 5,000 characters; this one has 5,001.");
    const over = updateRunSchema.safeParse({ notes: "x".repeat(MAX_NOTES + 1) });
    expect(over.success).toBe(false);
    expect(over.error?.issues[0]).toMatchObject({ path: ["notes"], message: "Note: at most 5,000 characters; this one has 5,001." });
    expect(updateRunSchema.parse({ notes: "x".repeat(MAX_NOTES) }).notes).toHaveLength(MAX_NOTES);
  });
});
