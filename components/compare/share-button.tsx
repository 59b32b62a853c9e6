"use client";

import { useId, useRef, useState } from "react";
import styles from "./compare.module.css";
import { DEFAULT_SHARE_INCLUDE, ShareOptions } from "./share-options";

type State = { kind: "closed" } | { kind: "editing"; error?: string } | { kind: "saving" } | { kind: "done"; url: string };

/** Freezes the comparison into a public, read-only link (POST /api/comparisons). */
/**
 * `suggestedTitle` names the hosts; `privateTitle` is the same suggestion made from the redacted
 * runs. The form starts private and follows the "Host names" box until the title is edited.
 */
export function ShareButton({ runIds, suggestedTitle, privateTitle }: { runIds: string[]; suggestedTitle: string; privateTitle: string }) {
  const id = useId();
  const [state, setState] = useState<State>({ kind: "closed" });
  const [title, setTitle] = useState(privateTitle);
  const [titleEdited, setTitleEdited] = useState(false);
  // What the public copy reveals about the hosts; names, addresses, paths and models stay private unless ticked.
  const [include, setInclude] = useState(DEFAULT_SHARE_INCLUDE);
  const [expiresInDays, setExpiresInDays] = useState("");
  const [copied, setCopied] = useState(false);
  const linkRef = useRef<HTMLInputElement>(null);

  async function share(e: React.FormEvent) {
    e.preventDefault();
    setState({ kind: "saving" });
    try {
      const res = await fetch("/api/comparisons", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ runIds, title, include, ...(expiresInDays ? { expiresInDays: Number(expiresInDays) } : {}) }),
      });
      const body = (await res.json().catch(() => ({}))) as { url?: string; error?: string; fieldErrors?: Record<string, string[]> };
      if (res.status !== 201 || !body.url) {
        const detail = body.fieldErrors ? Object.values(body.fieldErrors).flat().join(" ") : "";
        setState({ kind: "editing", error: `${body.error ?? `The server answered ${res.status}.`}${detail ? ` ${detail}` : ""}` });
        return;
      }
      setState({ kind: "done", url: body.url });
      setTimeout(() => linkRef.current?.select(), 0);
    } catch {
      setState({ kind: "editing", error: "Could not reach the server; try again." });
    }
  }

  async function copy(url: string) {
    try {
      await navigator.clipboard.writeText(url);
      setCopied(true);
    } catch {
      linkRef.current?.select();
    }
  }

  if (state.kind === "closed") {
    return (
      <button type="button" className="btn btn-primary" onClick={() => setState({ kind: "editing" })}>
        Share
      </button>
    );
  }
  if (state.kind === "done") {
    return (
      <div className={`panel ${styles.shareBox}`} data-testid="share-result" role="status">
        <strong>Anyone with this link can see this comparison, frozen as it is now (no sign-in needed):</strong>
        <span className="small muted">
          Withdraw it any time under <a href="/settings/shares">Share links</a>.
        </span>
        <div className={styles.shareRow}>
          <input ref={linkRef} readOnly value={state.url} aria-label="Share link" data-testid="share-url" onFocus={(e) => e.currentTarget.select()} />
          <button type="button" className="btn" onClick={() => void copy(state.url)}>
            {copied ? "Copied" : "Copy"}
          </button>
          <a className="btn" href={state.url} target="_blank" rel="noopener">
            Open
          </a>
        </div>
      </div>
    );
  }
  return (
    <form className={`panel ${styles.shareBox}`} onSubmit={(e) => void share(e)} aria-labelledby={`${id}-h`}>
      <strong id={`${id}-h`}>Share a frozen, read-only copy of this comparison</strong>
      <label>
        Title
        <input value={title} onChange={(e) => {
            setTitle(e.target.value);
            setTitleEdited(true);
          }} maxLength={200} required autoFocus aria-invalid={state.kind === "editing" && !!state.error} />
      </label>
      <ShareOptions
        include={include}
        onInclude={(next) => {
          // The suggested title follows the "Host names" box until the title is edited.
          if (next.hostnames !== include.hostnames && !titleEdited) setTitle(next.hostnames ? suggestedTitle : privateTitle);
          setInclude(next);
        }}
        expiresInDays={expiresInDays}
        onExpires={setExpiresInDays}
      />
      {state.kind === "editing" && state.error ? (
        <p role="alert" className="field-error">
          {state.error}
        </p>
      ) : null}
      <div className={styles.shareRow}>
        <button type="submit" className="btn btn-primary" disabled={state.kind === "saving" || title.trim() === ""}>
          {state.kind === "saving" ? "Creating link…" : "Create share link"}
        </button>
        <button type="button" className="btn" onClick={() => setState({ kind: "closed" })}>
          Cancel
        </button>
      </div>
    </form>
  );
}
