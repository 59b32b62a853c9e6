"use client";

import { useState } from "react";

/**
 * Freezes the sweep under a share link. By default the share leaves the host's name and the target
 * path out (lib/server/experiments/share-experiment.ts); the sharer may choose to keep them.
 */
export function ShareSweepButton({ id }: { id: string }) {
  const [state, setState] = useState<{ kind: "idle" | "pending" } | { kind: "done"; path: string; kept: boolean } | { kind: "error"; message: string }>({ kind: "idle" });
  const [keepHost, setKeepHost] = useState(false);
  async function share() {
    setState({ kind: "pending" });
    const include = { hostnames: keepHost, paths: keepHost };
    const r = await fetch(`/api/experiments/${id}/share`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ include }),
    }).catch(() => null);
    const body = (await r?.json().catch(() => null)) as { path?: string; error?: string } | null;
    if (r?.status === 201 && body?.path) setState({ kind: "done", path: body.path, kept: keepHost });
    else setState({ kind: "error", message: body?.error ?? "The server could not be reached." });
  }
  if (state.kind === "done") {
    return (
      <span data-testid="experiment-share-link">
        {state.kept ? "Shared with the host name and target path: " : "Shared without the host name and target path: "}
        <a href={state.path}>{`${window.location.origin}${state.path}`}</a>
      </span>
    );
  }
  return (
    <span style={{ display: "inline-flex", gap: "0.8rem", flexWrap: "wrap", alignItems: "center" }}>
      <label className="small">
        <input type="checkbox" checked={keepHost} onChange={(e) => setKeepHost(e.target.checked)} /> Show the host name and target path
      </label>
      <button className="btn" type="button" onClick={() => void share()} disabled={state.kind === "pending"}>
        {state.kind === "pending" ? "Sharing…" : "Share a frozen copy"}
      </button>
      {state.kind === "error" ? (
        <span role="alert" className="field-error">
          {state.message}
        </span>
      ) : null}
    </span>
  );
}
