"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";

/** A probe as the import form offers it: its id and import label from the catalog (the page passes them). */
export interface ImportChoice {
  id: string;
  label: string;
}

interface Errors {
  error?: string;
  fieldErrors?: Record<string, string[]>;
}

export function ImportForm({ probes }: { probes: readonly ImportChoice[] }) {
  const router = useRouter();
  const [probe, setProbe] = useState(probes[0]?.id ?? "");
  const [output, setOutput] = useState("");
  const [hostLabel, setHostLabel] = useState("");
  const [notes, setNotes] = useState("");
  const [errors, setErrors] = useState<Errors>({});
  const [pending, setPending] = useState(false);

  async function onFile(file: File | undefined) {
    if (!file) return;
    setOutput(await file.text());
    if (!hostLabel) setHostLabel(file.name.replace(/\.[^.]+$/, ""));
  }

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setPending(true);
    setErrors({});
    try {
      const r = await fetch("/api/runs/import", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ probe, output, hostLabel, notes: notes || undefined }),
      });
      const body = (await r.json().catch(() => ({}))) as Errors & { id?: string };
      if (r.status === 201 && body.id) {
        router.push(`/runs/${body.id}`);
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
      <label>
        Output file
        <input type="file" name="file" accept=".txt,.log,.json,.out,text/plain,application/json" onChange={(e) => void onFile(e.target.files?.[0])} />
      </label>
      <label>
        Output (paste here or choose a file above)
        <textarea
          name="output"
          rows={14}
          value={output}
          onChange={(e) => setOutput(e.target.value)}
          spellCheck={false}
          aria-invalid={fe.output ? true : undefined}
        />
        {fe.output ? <span className="field-error">{fe.output.join(" ")}</span> : null}
      </label>
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
