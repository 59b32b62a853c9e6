"use client";

import { useId, useMemo, useState, type ChangeEvent } from "react";
import { describeProblem, JOB_FILE_MAX_BYTES, validateJobFile } from "@/probes/fio/jobfile/validate";

/**
 * A fio job file, pasted or picked: checked as it is typed with the same allow-list the server
 * and the agent apply (probes/fio/jobfile/validate.ts), each refusal with its line; the server's
 * own answer (serverErrors, from params.jobFile) is shown too after a launch.
 */
export function FioJobFileField({ value, onChange, serverErrors }: { value: string; onChange: (text: string) => void; serverErrors: string[] }) {
  const id = useId();
  const [pickError, setPickError] = useState<string | null>(null);
  const verdict = useMemo(() => (value.trim() === "" ? null : validateJobFile(value)), [value]);
  const problems = verdict && !verdict.ok ? verdict.problems.map(describeProblem) : [];
  const shown = [...new Set([...problems, ...serverErrors.filter((e) => !problems.includes(e))])];

  async function pick(e: ChangeEvent<HTMLInputElement>) {
    setPickError(null);
    const file = e.target.files?.[0];
    if (!file) return;
    // Checked before reading: a file picked by mistake (an image, a log) is not read into the page.
    if (file.size > JOB_FILE_MAX_BYTES) {
      setPickError(`${file.name} is ${Math.ceil(file.size / 1024)} KiB; a job file may be at most 64 KiB.`);
      e.target.value = "";
      return;
    }
    onChange(await file.text());
  }

  return (
    <div className="stack" data-testid="fio-job-file">
      <label htmlFor={`${id}-text`}>fio job file ([global] and [job] sections; options from the allow-list, files by plain name only)</label>
      <textarea
        id={`${id}-text`}
        name="jobFile"
        rows={12}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        spellCheck={false}
        placeholder={"[global]\nsize=64m\ndirect=1\n\n[randread]\nrw=randread\nbs=4k\nruntime=30\ntime_based"}
        aria-invalid={shown.length ? true : undefined}
        aria-describedby={`${id}-problems`}
        style={{ fontFamily: "monospace" }}
      />
      <label className="small">
        or pick a file (at most 64 KiB){" "}
        <input type="file" accept=".fio,.ini,.job,text/plain" onChange={(e) => void pick(e)} data-testid="fio-job-file-pick" />
      </label>
      <div id={`${id}-problems`} aria-live="polite">
        {pickError ? <span className="field-error">{pickError}</span> : null}
        {shown.length > 0 ? (
          <ul className="field-error" data-testid="fio-job-file-problems" style={{ margin: 0 }}>
            {shown.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        ) : verdict?.ok ? (
          <span className="muted small" data-testid="fio-job-file-ok">
            {verdict.summary.jobs.length} job{verdict.summary.jobs.length === 1 ? "" : "s"}, {verdict.summary.threads} thread{verdict.summary.threads === 1 ? "" : "s"}, writes up to {(verdict.summary.writesBytes / 1024 ** 2).toFixed(0)} MiB in the run&apos;s directory.
          </span>
        ) : null}
      </div>
    </div>
  );
}
