"use client";

import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { CancelPostButton } from "@/components/run/cancel-button";

/** Stops the experiment: queued runs go, the running one is stopped and its arm's setup put back. */
export function CancelExperimentButton({ id }: { id: string }) {
  return <CancelPostButton url={`/api/experiments/${id}/cancel`} label="Cancel experiment" />;
}

/** Re-reads the page every few seconds while the experiment has work left (between runs no terminal is live). */
export function RefreshWhile({ active, everyMs = 3000 }: { active: boolean; everyMs?: number }) {
  const router = useRouter();
  useEffect(() => {
    if (!active) return;
    const t = setInterval(() => router.refresh(), everyMs);
    return () => clearInterval(t);
  }, [active, everyMs, router]);
  return null;
}

/** Freezes the experiment's runs and verdict under a share link (like a shared comparison). */
export function ShareExperimentButton({ id }: { id: string }) {
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
        Shared: <a href={state.path}>{`${window.location.origin}${state.path}`}</a>
      </span>
    );
  }
  return (
    <span>
      <button className="btn" type="button" onClick={() => void share()} disabled={state.kind === "pending"}>
        {state.kind === "pending" ? "Sharing…" : "Share a frozen copy"}
      </button>
      {state.kind === "error" ? (
        <span role="alert" className="field-error" style={{ marginLeft: 8 }}>
          {state.message}
        </span>
      ) : null}
    </span>
  );
}
