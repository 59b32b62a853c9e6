"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";

/**
 * A delete button that asks first: the first click shows what will happen and a second,
 * explicit button; only that one sends DELETE to `url`. Then goes to `after` (or refreshes).
 */
export function DeleteButton({ url, label, consequence, after }: { url: string; label: string; consequence: string; after?: string }) {
  const router = useRouter();
  const [state, setState] = useState<"idle" | "confirm" | "pending" | "error">("idle");
  const [message, setMessage] = useState("");
  async function remove() {
    setState("pending");
    const r = await fetch(url, { method: "DELETE" }).catch(() => null);
    if (r?.ok) {
      if (after) router.push(after);
      router.refresh();
      return;
    }
    setState("error");
    setMessage(((await r?.json().catch(() => null)) as { error?: string } | null)?.error ?? "The server could not be reached.");
  }
  if (state === "idle" || state === "error") {
    return (
      <span>
        <button className="btn btn-danger" type="button" onClick={() => setState("confirm")}>
          {label}
        </button>
        {state === "error" ? (
          <span role="alert" className="field-error" style={{ marginLeft: 8 }}>
            {message}
          </span>
        ) : null}
      </span>
    );
  }
  return (
    <span role="group" aria-label={`Confirm: ${label}`} className="alert alert-warn" style={{ display: "inline-flex", gap: 8, alignItems: "center", flexWrap: "wrap" }}>
      <span>{consequence}</span>
      <button className="btn btn-danger" type="button" onClick={() => void remove()} disabled={state === "pending"}>
        {state === "pending" ? "Deleting…" : `Yes, ${label.toLowerCase()}`}
      </button>
      <button className="btn" type="button" onClick={() => setState("idle")} disabled={state === "pending"}>
        Keep it
      </button>
    </span>
  );
}
