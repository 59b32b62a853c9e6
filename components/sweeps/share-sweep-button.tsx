"use client";

import { useState } from "react";

/**
 * Freezes the sweep under a share link. The share leaves the host's name and the target path out
 * (lib/server/experiments/share-experiment.ts); the public page says only what the view keeps.
 */
export function ShareSweepButton({ id }: { id: string }) {
  const [state, setState] = useState<{ kind: "idle" | "pending" } | { kind: "done"; path: string } | { kind: "error"; message: string }>({ kind: "idle" });
  async function share() {
    setState({ kind: "pending" });
    const r = await fetch(`/api/experiments/${id}/share`, { method: "POST" }).catch(() => null);
    const body = (await r?.json().catch(() => null)) as { path?: string; error?: string } | null;
    if (r?.status === 201 && body?.path) setState({ kind: "done", path: body.path });
    else setState({ kind: "error", message: body?.error ?? "The server could not be reached." });
  }
  if (state.kind === "done") {
    return (
      <span data-testid="experiment-share-link">
        Shared without the host name and target path: <a href={state.path}>{`${window.location.origin}${state.path}`}</a>
      </span>
    );
  }
  return (
    <span style={{ display: "inline-flex", gap: "0.8rem", flexWrap: "wrap", alignItems: "center" }}>
      <button className="btn" type="button" onClick={() => void share()} disabled={state.kind === "pending"}>
        {state.kind === "pending" ? "Sharing…" : "Share a frozen copy"}
      </button>
      <span className="muted small">The host name and target path stay out of the shared copy.</span>
      {state.kind === "error" ? (
        <span role="alert" className="field-error">
          {state.message}
        </span>
      ) : null}
    </span>
  );
}
