"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";

/** A run's Cancel button: the agent stops the probe and the run ends as cancelled. */
export function CancelButton({ runId }: { runId: string }) {
  return <CancelPostButton url={`/api/runs/${runId}/cancel`} label="Cancel run" />;
}

/**
 * POSTs to a cancel route, refreshes the page on success, says what the server answered otherwise.
 * With `confirm`, the first press asks (the sentence and a second button) before anything is cancelled.
 */
export function CancelPostButton({ url, label, confirm }: { url: string; label: string; confirm?: { question: string; yes: string; no: string } }) {
  const router = useRouter();
  const [state, setState] = useState<"idle" | "asking" | "pending" | "error">("idle");
  const [message, setMessage] = useState("");
  async function cancel() {
    setState("pending");
    const r = await fetch(url, { method: "POST" }).catch(() => null);
    if (r?.ok) {
      router.refresh();
      setState("idle");
    } else {
      setState("error");
      setMessage(((await r?.json().catch(() => null)) as { error?: string } | null)?.error ?? "The server could not be reached.");
    }
  }
  if (confirm && state === "asking") {
    return (
      <span role="group" aria-label={label} data-testid="cancel-confirm">
        <span>{confirm.question}</span>{" "}
        <button className="btn btn-danger" type="button" onClick={() => void cancel()}>
          {confirm.yes}
        </button>{" "}
        <button className="btn" type="button" onClick={() => setState("idle")} autoFocus>
          {confirm.no}
        </button>
      </span>
    );
  }
  return (
    <span>
      <button className="btn btn-danger" type="button" onClick={() => (confirm ? setState("asking") : void cancel())} disabled={state === "pending"}>
        {state === "pending" ? "Cancelling…" : label}
      </button>
      {state === "error" ? (
        <span role="alert" className="field-error" style={{ marginLeft: 8 }}>
          {message}
        </span>
      ) : null}
    </span>
  );
}
