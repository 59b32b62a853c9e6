"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { MAX_NOTES, noteTooLong } from "@/lib/run-note";

/** The run page's "Tags and note" editor: PATCH /api/runs/{id}, then the page re-renders. */
export function RunAnnotations({ runId, tags, notes }: { runId: string; tags: string[]; notes: string | null }) {
  const router = useRouter();
  const [tagText, setTagText] = useState(tags.join(", "));
  const [note, setNote] = useState(notes ?? "");
  const [state, setState] = useState<"idle" | "pending" | "saved" | "error">("idle");
  const [errors, setErrors] = useState<string[]>([]);
  async function save(e: React.FormEvent) {
    e.preventDefault();
    // Refused here as the server would: never cut a note short and call it saved.
    const tooLong = noteTooLong(note);
    if (tooLong) {
      setErrors([tooLong]);
      setState("error");
      return;
    }
    setState("pending");
    const body = { tags: tagText.split(/[\s,]+/).filter(Boolean), notes: note };
    const r = await fetch(`/api/runs/${runId}`, { method: "PATCH", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }).catch(() => null);
    if (r?.ok) {
      const saved = (await r.json()) as { tags: string[]; notes: string | null };
      setTagText(saved.tags.join(", "));
      setNote(saved.notes ?? "");
      setErrors([]);
      setState("saved");
      router.refresh();
      return;
    }
    const err = (await r?.json().catch(() => null)) as { error?: string; fieldErrors?: Record<string, string[]> } | null;
    setErrors(err?.fieldErrors ? [...new Set(Object.values(err.fieldErrors).flat())] : [err?.error ?? "The server could not be reached."]);
    setState("error");
  }
  return (
    <details className="panel" data-testid="run-annotations">
      <summary>Tags and note</summary>
      <form onSubmit={(e) => void save(e)} className="stack">
        <label>
          Tags <span className="muted small">(separated by commas or spaces: lower-case letters, digits, . _ : + -)</span>
          <input name="tags" value={tagText} onChange={(e) => setTagText(e.target.value)} placeholder="baseline, nvme" maxLength={500} />
        </label>
        <label>
          Note
          <textarea name="notes" value={note} onChange={(e) => setNote(e.target.value)} rows={3} aria-invalid={note.length > MAX_NOTES ? true : undefined} aria-describedby="run-note-count" />
        </label>
        <span id="run-note-count" data-testid="note-count" className={note.length > MAX_NOTES ? "field-error" : "muted small"}>
          {note.length.toLocaleString("en")} / {MAX_NOTES.toLocaleString("en")} characters
        </span>
        {state === "error" ? (
          <div role="alert" className="alert alert-error">
            {errors.join(" ")}
          </div>
        ) : null}
        <div>
          <button className="btn btn-primary" type="submit" disabled={state === "pending"}>
            {state === "pending" ? "Saving…" : "Save tags and note"}
          </button>
          {state === "saved" ? (
            <span role="status" className="muted" style={{ marginLeft: 8 }}>
              Saved.
            </span>
          ) : null}
        </div>
      </form>
    </details>
  );
}
