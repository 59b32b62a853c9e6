// The import form's requests: a paste goes as JSON, a file larger than INLINE_FILE_BYTES as the
// file itself in a multipart form (lib/api/runs.ts importFile, importFilePreview), so the page
// never holds megabytes of text in a text box and the server counts the same bytes the file has.
import { MAX_IMPORT_BYTES, MAX_IMPORT_WORDS } from "@/probes/core/limits";

/** Files up to this size are shown in the text box to be checked or trimmed; larger ones are uploaded as they are. */
export const INLINE_FILE_BYTES = 1024 * 1024;

/** The limit as the form states it beside the file picker. */
export const IMPORT_LIMIT_HINT = `Up to ${MAX_IMPORT_WORDS}. Files over ${INLINE_FILE_BYTES / 1024 / 1024} MiB are uploaded as they are, not shown in the box below.`;

/** "26.0 MiB", "812 KiB": a file's size as the form says it. */
export function sizeWords(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KiB`;
}

/** Whether a chosen file can be imported at all, from its size alone (nothing is read). */
export function fileTooLarge(file: File): boolean {
  return file.size > MAX_IMPORT_BYTES;
}

export interface ImportFields {
  probe: string;
  hostLabel: string;
  notes?: string;
  runs?: "separate" | "series";
}

/** The preview request: the paste as JSON, or the file as a form. */
export function previewRequest(probe: string, source: { output: string } | { file: File }, signal: AbortSignal): Promise<Response> {
  if ("file" in source) {
    const form = new FormData();
    form.set("probe", probe);
    form.set("file", source.file);
    return fetch("/api/runs/import/file/preview", { method: "POST", body: form, signal });
  }
  return fetch("/api/runs/import/preview", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ probe, output: source.output }), signal });
}

/** The import request: the paste as JSON, or the file as a form with the other fields beside it. */
export function importRequest(fields: ImportFields, source: { output: string } | { file: File }): Promise<Response> {
  if ("file" in source) {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) if (v !== undefined) form.set(k, v);
    form.set("file", source.file);
    return fetch("/api/runs/import/file", { method: "POST", body: form });
  }
  return fetch("/api/runs/import", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ ...fields, output: source.output }) });
}
