"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";

/**
 * "Re-check tools": asks the running agent to detect its tools again. While the request is
 * pending the page refreshes itself, so the answer shows without a reload.
 */
export function RecheckTools({ hostId, pending, recheck }: { hostId: string; pending: boolean; recheck: (form: FormData) => Promise<void> }) {
  const router = useRouter();
  useEffect(() => {
    if (!pending) return;
    const t = setInterval(() => router.refresh(), 1500);
    // The agent may be busy with a run: stop asking the server after a while.
    const stop = setTimeout(() => clearInterval(t), 120_000);
    return () => {
      clearInterval(t);
      clearTimeout(stop);
    };
  }, [pending, router]);
  return (
    <form action={recheck} style={{ display: "inline" }}>
      <input type="hidden" name="hostId" value={hostId} />
      <button className="btn" type="submit" disabled={pending}>
        {pending ? "Re-checking…" : "Re-check tools"}
      </button>
      {pending ? <span className="muted small"> waiting for the agent (it answers between runs)</span> : null}
    </form>
  );
}
