"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";

const PROBES = [
  { id: "iozone", label: "iozone (auto tables, -t throughput, -R report)" },
  { id: "dd", label: "dd (coreutils in any language, busybox, toybox, BSD/macOS)" },
  { id: "sar", label: "sar text (any locale), sadf -j JSON or sadf -d CSV" },
  { id: "fio", label: "fio JSON, json+ or its normal text report" },
];

interface Errors {
  error?: string;
  fieldErrors?: Record<string, string[]>;
}

export function ImportForm() {
  const router = useRouter();
  const [probe, setProbe] = useState("iozone");
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
          {PROBES.map((p) => (
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
