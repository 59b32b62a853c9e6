"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";

export function CancelButton({ runId }: { runId: string }) {
  const router = useRouter();
  const [state, setState] = useState<"idle" | "pending" | "error">("idle");
  const [message, setMessage] = useState("");
  async function cancel() {
    setState("pending");
    const r = await fetch(`/api/runs/${runId}/cancel`, { method: "POST" }).catch(() => null);
    if (r?.ok) {
      router.refresh();
      setState("idle");
    } else {
      setState("error");
      setMessage(((await r?.json().catch(() => null)) as { error?: string } | null)?.error ?? "The server could not be reached.");
    }
  }
  return (
    <span>
      <button className="btn btn-danger" type="button" onClick={() => void cancel()} disabled={state === "pending"}>
        {state === "pending" ? "Cancelling…" : "Cancel run"}
      </button>
      {state === "error" ? (
        <span role="alert" className="field-error" style={{ marginLeft: 8 }}>
          {message}
        </span>
      ) : null}
    </span>
  );
}
