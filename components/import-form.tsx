"use client";

import { useRouter } from "next/navigation";
import { useEffect, useState, type FormEvent } from "react";
import { EMPTY_IMPORT_FILE, importTooLarge, MAX_IMPORT_BYTES, utf8Length } from "@/probes/core/limits";
import { fileTooLarge, IMPORT_LIMIT_HINT, importRequest, INLINE_FILE_BYTES, previewRequest, sizeWords } from "./import-requests";

/** A probe as the import form offers it: its id and import label from the catalog (the page passes them). */
export interface ImportChoice {
  id: string;
  label: string;
}

interface Errors {
  error?: string;
  fieldErrors?: Record<string, string[]>;
}

/** What POST /api/runs/import/preview answers: the form read and the runs the paste holds. */
interface Preview {
  format: string | null;
  summary: string;
  runs: { run: number; command: string | null; realSeconds: number | null }[];
}

type RunsChoice = "separate" | "series";

// Wait for typing to pause before asking the server to read the paste.
const PREVIEW_DELAY_MS = 500;

export function ImportForm({ probes }: { probes: readonly ImportChoice[] }) {
  const router = useRouter();
  const [probe, setProbe] = useState(probes[0]?.id ?? "");
  const [output, setOutput] = useState("");
  // A chosen file too large to show in the text box: it is uploaded as it is.
  const [upload, setUpload] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [hostLabel, setHostLabel] = useState("");
  const [notes, setNotes] = useState("");
  const [errors, setErrors] = useState<Errors>({});
  const [pending, setPending] = useState(false);
  const [preview, setPreview] = useState<Preview | null>(null);
  const [previewError, setPreviewError] = useState<string | null>(null);
  const [runsChoice, setRunsChoice] = useState<RunsChoice>("separate");

  // The server reads the paste as the import would (parsers never run in the browser) and says
  // how many runs it holds, so several can be imported as runs of their own or as one series.
  useEffect(() => {
    setPreview(null);
    setPreviewError(null);
    if (!probe || (!upload && output.trim() === "")) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      previewRequest(probe, upload ? { file: upload } : { output }, controller.signal)
        .then(async (r) => {
          const body = (await r.json().catch(() => ({}))) as Partial<Preview> & Errors;
          if (r.ok && body.runs && body.summary) setPreview({ format: body.format ?? null, summary: body.summary, runs: body.runs });
          else setPreviewError(body.error ?? `The output could not be read (HTTP ${r.status}).`);
        })
        .catch(() => undefined);
    }, PREVIEW_DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [probe, output, upload]);
  const several = preview && preview.runs.length > 1 ? preview.runs.length : 0;

  // Judged by its size before anything is read: an empty file or one over the limit is named at
  // once, and a large one is never turned into text in the page (a 26 MB file froze it).
  async function onFile(file: File | undefined) {
    setFileError(null);
    setUpload(null);
    if (!file) return;
    if (file.size === 0) return setFileError(EMPTY_IMPORT_FILE);
    if (fileTooLarge(file)) return setFileError(`${file.name} is ${sizeWords(file.size)}. ${importTooLarge("file")}`);
    if (!hostLabel) setHostLabel(file.name.replace(/\.[^.]+$/, ""));
    if (file.size > INLINE_FILE_BYTES) {
      setOutput("");
      setUpload(file);
      return;
    }
    setOutput(await file.text());
  }

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (!upload && output.length > 0 && utf8Length(output) > MAX_IMPORT_BYTES) {
      setErrors({ error: importTooLarge("output"), fieldErrors: { output: [importTooLarge("output")] } });
      return;
    }
    setPending(true);
    setErrors({});
    try {
      const fields = { probe, hostLabel, notes: notes || undefined, runs: several ? runsChoice : undefined };
      const r = await importRequest(fields, upload ? { file: upload } : { output });
      const body = (await r.json().catch(() => ({}))) as Errors & { id?: string; ids?: string[] };
      if (r.status === 201 && body.id) {
        // Runs of their own are shown side by side; one run (or one series) on its own page.
        router.push(body.ids && body.ids.length > 1 ? `/compare?runs=${body.ids.join(",")}` : `/runs/${body.id}`);
        return;
      }
      setErrors({ error: body.error ?? `Import failed (HTTP ${r.status}).`, fieldErrors: body.fieldErrors });
    } catch {
      setErrors({ error: "The server could not be reached; your output is still in the form." });
    } finally {
      setPending(false);
    }
  }

  const fe = errors.fieldErrors ?? {};
  return (
    <form className="stack" style={{ maxWidth: "48rem" }} onSubmit={onSubmit} noValidate>
      {errors.error ? (
        <div role="alert" className="alert alert-error" data-testid="import-error">
          {errors.error}
        </div>
      ) : null}
      <label>
        Tool
        <select name="probe" value={probe} onChange={(e) => setProbe(e.target.value)}>
          {probes.map((p) => (
            <option key={p.id} value={p.id}>
              {p.label}
            </option>
          ))}
        </select>
      </label>
      <label>
        Machine it ran on
        <input
          name="hostLabel"
          value={hostLabel}
          onChange={(e) => setHostLabel(e.target.value)}
          placeholder="e.g. db-07 · Intel SSD · ext4"
          aria-invalid={fe.hostLabel ? true : undefined}
        />
        {fe.hostLabel ? <span className="field-error">{fe.hostLabel.join(" ")}</span> : null}
      </label>
      <div className="stack">
        <label>
          Output file
          <input
            type="file"
            name="file"
            accept=".txt,.log,.json,.out,text/plain,application/json"
            aria-describedby="import-file-limit"
            aria-invalid={fileError || fe.file ? true : undefined}
            onChange={(e) => void onFile(e.target.files?.[0])}
          />
        </label>
        <span id="import-file-limit" className="muted small">
          {IMPORT_LIMIT_HINT}
        </span>
        {fileError || fe.file ? (
          <span className="field-error" role="alert" data-testid="import-file-error">
            {fileError ?? fe.file?.join(" ")}
          </span>
        ) : null}
        {upload ? (
          <p className="muted small" data-testid="import-upload">
            {upload.name} ({sizeWords(upload.size)}) will be uploaded as a file.{" "}
            <button type="button" className="btn" onClick={() => setUpload(null)}>
              Paste instead
            </button>
          </p>
        ) : null}
      </div>
      <label>
        Output (paste here or choose a file above)
        <textarea
          name="output"
          rows={14}
          value={output}
          onChange={(e) => setOutput(e.target.value)}
          spellCheck={false}
          disabled={!!upload}
          aria-invalid={fe.output ? true : undefined}
        />
        {fe.output ? <span className="field-error">{fe.output.join(" ")}</span> : null}
      </label>
      <p className="muted" aria-live="polite" data-testid="import-preview">
        {preview ? `${preview.summary}${preview.format ? ` · read as ${preview.format}` : ""}` : previewError ? `Not readable yet: ${previewError}` : ""}
      </p>
      {several && preview ? (
        <fieldset className="import-runs" data-testid="import-runs">
          <legend>This output holds {several} runs</legend>
          <ol>
            {preview.runs.map((r) => (
              <li key={r.run}>
                <code>{r.command ?? "(no command line)"}</code>
                {r.realSeconds !== null ? ` · real ${r.realSeconds} s` : ""}
              </li>
            ))}
          </ol>
          <label className="check">
            <input type="radio" name="runs" value="separate" checked={runsChoice === "separate"} onChange={() => setRunsChoice("separate")} />
            Separate runs: {several} runs, each with its command line as its note
          </label>
          <label className="check">
            <input type="radio" name="runs" value="series" checked={runsChoice === "series"} onChange={() => setRunsChoice("series")} />
            One repeated series: one run whose measurements carry run 1…{several}
          </label>
          {fe.runs ? <span className="field-error">{fe.runs.join(" ")}</span> : null}
        </fieldset>
      ) : fe.runs ? (
        <span className="field-error">{fe.runs.join(" ")}</span>
      ) : null}
      <label>
        Notes (optional)
        <input name="notes" value={notes} onChange={(e) => setNotes(e.target.value)} placeholder="kernel, mount options, what you changed…" />
      </label>
      <div>
        <button className="btn btn-primary" type="submit" disabled={pending}>
          {pending ? "Importing…" : "Import"}
        </button>
      </div>
    </form>
  );
}
