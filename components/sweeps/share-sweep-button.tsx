"use client";

import { useId, useState } from "react";

/**
 * Freezes the sweep under a share link. The host's name and the target path stay out of the
 * public copy unless the sharer ticks the box (the shared page then shows them).
 */
export function ShareSweepButton({ id }: { id: string }) {
  const boxId = useId();
  const [hostnames, setHostnames] = useState(false);
  const [state, setState] = useState<{ kind: "idle" | "pending" } | { kind: "done"; path: string } | { kind: "error"; message: string }>({ kind: "idle" });
  async function share() {
    setState({ kind: "pending" });
    const r = await fetch(`/api/experiments/${id}/share`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ include: { hostnames, paths: hostnames } }) }).catch(() => null);
    const body = (await r?.json().catch(() => null)) as { path?: string; error?: string } | null;
    if (r?.status === 201 && body?.path) setState({ kind: "done", path: body.path });
    else setState({ kind: "error", message: body?.error ?? "The server could not be reached." });
  }
  if (state.kind === "done") {
    return (
      <span data-testid="experiment-share-link">
        Shared: <a href={state.path}>{`${window.location.origin}${state.path}`}</a>
      </span>
    );
  }
  return (
    <span style={{ display: "inline-flex", gap: "0.8rem", flexWrap: "wrap", alignItems: "center" }}>
      <label htmlFor={boxId} style={{ display: "inline-flex", gap: "0.4rem", alignItems: "center" }}>
        <input id={boxId} type="checkbox" checked={hostnames} onChange={(e) => setHostnames(e.target.checked)} /> Show the host name and target path
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
