"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";

/** The retention setting: keep runs' raw output forever, or N days after the run ended. */
export function RetentionForm({ rawLogDays }: { rawLogDays: number | null }) {
  const router = useRouter();
  const [mode, setMode] = useState<"forever" | "days">(rawLogDays === null ? "forever" : "days");
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const days = mode === "forever" ? null : Number(f.get("days"));
    const r = await fetch("/api/admin/settings/retention", { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify({ rawLogDays: days }) }).catch(() => null);
    if (r?.ok) {
      setMessage({ ok: true, text: days === null ? "Saved: raw output is kept forever." : `Saved: raw output is dropped ${days} days after a run ends.` });
      router.refresh();
      return;
    }
    const b = (await r?.json().catch(() => null)) as { error?: string; fieldErrors?: Record<string, string[]> } | null;
    setMessage({ ok: false, text: b?.fieldErrors?.rawLogDays?.join(" ") ?? b?.error ?? "The server could not be reached." });
  }
  return (
    <form onSubmit={(e) => void submit(e)} className="card" style={{ display: "grid", gap: 8, maxWidth: 560 }} data-testid="retention-form">
      <label>
        <input type="radio" name="mode" checked={mode === "forever"} onChange={() => setMode("forever")} /> Keep raw output forever
      </label>
      <label>
        <input type="radio" name="mode" checked={mode === "days"} onChange={() => setMode("days")} /> Drop raw output a number of days after a run ended
      </label>
      <label style={{ marginLeft: "1.6rem" }}>
        Days{" "}
        <input name="days" type="number" min={1} max={36500} step={1} defaultValue={rawLogDays ?? 90} disabled={mode === "forever"} style={{ width: "6em" }} />
      </label>
      <div>
        <button className="btn btn-primary" type="submit">
          Save
        </button>
      </div>
      {message ? (
        <p role={message.ok ? "status" : "alert"} className={message.ok ? "alert alert-ok" : "alert alert-error"}>
          {message.text}
        </p>
      ) : null}
    </form>
  );
}
