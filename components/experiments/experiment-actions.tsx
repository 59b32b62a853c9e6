"use client";

import { useRouter } from "next/navigation";
import { useEffect, useState, type FormEvent } from "react";
import { DEFAULT_SHARE_INCLUDE, ShareOptions } from "@/components/compare/share-options";
import { CancelPostButton } from "@/components/run/cancel-button";

/** Stops the experiment: queued runs go, the running one is stopped and its arm's setup put back. */
export function CancelExperimentButton({ id }: { id: string }) {
  return (
    <CancelPostButton
      url={`/api/experiments/${id}/cancel`}
      label="Cancel experiment"
      confirm={{ question: "Cancel this experiment? Its queued runs are dropped and the running one is stopped; this cannot be undone.", yes: "Yes, cancel it", no: "Keep it running" }}
    />
  );
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

/**
 * Freezes the experiment's runs and verdict under a share link (like a shared comparison): the
 * button opens the same choices the comparison's share offers — which host details the copy keeps
 * and when the link expires — and only "Create share link" publishes.
 */
export function ShareExperimentButton({ id }: { id: string }) {
  const [state, setState] = useState<{ kind: "closed" | "editing" | "pending" } | { kind: "done"; path: string } | { kind: "error"; message: string }>({ kind: "closed" });
  const [include, setInclude] = useState(DEFAULT_SHARE_INCLUDE);
  const [expiresInDays, setExpiresInDays] = useState("");
  async function share(e: FormEvent) {
    e.preventDefault();
    setState({ kind: "pending" });
    const r = await fetch(`/api/experiments/${id}/share`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ include, ...(expiresInDays ? { expiresInDays: Number(expiresInDays) } : {}) }),
    }).catch(() => null);
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
  if (state.kind === "closed") {
    return (
      <button className="btn" type="button" onClick={() => setState({ kind: "editing" })}>
        Share a frozen copy
      </button>
    );
  }
  return (
    <form className="panel stack" onSubmit={(e) => void share(e)} aria-label="Share a frozen copy of this experiment" data-testid="experiment-share-form" style={{ maxWidth: "40rem" }}>
      <strong>Share a frozen, read-only copy of this experiment</strong>
      <ShareOptions include={include} onInclude={setInclude} expiresInDays={expiresInDays} onExpires={setExpiresInDays} />
      {state.kind === "error" ? (
        <p role="alert" className="field-error">
          {state.message}
        </p>
      ) : null}
      <div className="row">
        <button type="submit" className="btn btn-primary" disabled={state.kind === "pending"}>
          {state.kind === "pending" ? "Creating link…" : "Create share link"}
        </button>{" "}
        <button type="button" className="btn" onClick={() => setState({ kind: "closed" })}>
          Cancel
        </button>
      </div>
    </form>
  );
}
