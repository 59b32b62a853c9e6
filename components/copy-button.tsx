"use client";

import { useState } from "react";

/** Copies `text` to the clipboard; where the browser refuses (plain http), says to select it instead. */
export function CopyButton({ text, label = "Copy" }: { text: string; label?: string }) {
  const [state, setState] = useState<"idle" | "copied" | "refused">("idle");
  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setState("copied");
    } catch {
      setState("refused");
    }
  }
  return (
    <button type="button" className="btn" onClick={() => void copy()} aria-live="polite">
      {state === "copied" ? "Copied" : state === "refused" ? "Select and copy it" : label}
    </button>
  );
}
