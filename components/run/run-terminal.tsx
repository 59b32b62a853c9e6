"use client";

import { useEffect, useRef, useState } from "react";
import { useRouter } from "next/navigation";
import "@xterm/xterm/css/xterm.css";
import { getProbe } from "@/probes/catalog";
import { collapseCollectedFiles } from "@/probes/core/collected-files";
import { ENDED_STATUSES } from "@/lib/run-status";
import type { Progress } from "@/probes/core/types";
import { RUN_STATUS_EVENT, type RunStatusDetail } from "./live-status-badge";

interface Props {
  runId: string;
  probe: string;
  params: unknown;
  live: boolean;
  /** The whole text so far, after each chunk (the timeline reads the probe's progress from it). */
  onText?: (text: string) => void;
  /** Telemetry samples as the run's event stream delivers them. */
  onTelemetry?: (samples: unknown[]) => void;
  /** The run's status as the stream reports it. */
  onStatus?: (status: string) => void;
}

const ENDED = ENDED_STATUSES;

/**
 * The run's output in a terminal, replayed from the start and followed live over SSE. The
 * browser keeps the whole text so the probe's own progress extractor can read it.
 */
export function RunTerminal({ runId, probe, params, live, onText, onTelemetry, onStatus }: Props) {
  const host = useRef<HTMLDivElement>(null);
  const router = useRouter();
  const [progress, setProgress] = useState<Progress | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  // Callbacks through a ref: a new function from the parent must not reopen the stream.
  const listeners = useRef({ onText, onTelemetry, onStatus });
  useEffect(() => {
    listeners.current = { onText, onTelemetry, onStatus };
  }, [onText, onTelemetry, onStatus]);

  useEffect(() => {
    let disposed = false;
    let source: EventSource | null = null;
    let text = "";
    let cleanup: () => void = () => undefined;
    const def = getProbe(probe);
    void (async () => {
      const { Terminal } = await import("@xterm/xterm");
      const { FitAddon } = await import("@xterm/addon-fit");
      if (disposed || !host.current) return;
      const term = new Terminal({ convertEol: false, disableStdin: true, scrollback: 20000, fontSize: 13, theme: { background: "#0b0f14" } });
      const fit = new FitAddon();
      term.loadAddon(fit);
      term.open(host.current);
      fit.fit();
      const onResize = () => fit.fit();
      window.addEventListener("resize", onResize);
      // Files the agent appended after the tool (per-second logs) are for the parser.
      const collapse = collapseCollectedFiles();
      source = new EventSource(`/api/runs/${runId}/events`);
      source.addEventListener("chunk", (e) => {
        const { data } = JSON.parse((e as MessageEvent<string>).data) as { seq: number; data: string };
        text += data;
        // Lone \n from a pty is already \r\n; captured logs may carry bare \n, which xterm needs as \r\n.
        term.write(collapse(data).replace(/(?<!\r)\n/g, "\r\n"));
        if (def) setProgress(def.extractProgress(text, params as never));
        listeners.current.onText?.(text);
      });
      source.addEventListener("telemetry", (e) => {
        const { samples } = JSON.parse((e as MessageEvent<string>).data) as { samples: unknown[] };
        listeners.current.onTelemetry?.(samples);
      });
      source.addEventListener("status", (e) => {
        const s = JSON.parse((e as MessageEvent<string>).data) as { status: string };
        setStatus(s.status);
        listeners.current.onStatus?.(s.status);
        window.dispatchEvent(new CustomEvent<RunStatusDetail>(RUN_STATUS_EVENT, { detail: { runId, status: s.status } }));
      });
      source.addEventListener("end", () => {
        source?.close();
        if (live) router.refresh();
      });
      cleanup = () => {
        window.removeEventListener("resize", onResize);
        term.dispose();
      };
      if (disposed) cleanup();
    })();
    return () => {
      disposed = true;
      source?.close();
      cleanup();
    };
  }, [runId, probe, params, live, router]);

  const running = live && (status === null || !ENDED.has(status));
  return (
    <div>
      {running && progress ? (
        <div style={{ margin: "0.5rem 0" }}>
          <div
            className="progress"
            role="progressbar"
            aria-label="Run progress"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={Math.round(progress.fraction * 100)}
          >
            <div style={{ width: `${(progress.fraction * 100).toFixed(1)}%` }} />
          </div>
          <div className="muted small" data-testid="run-progress">
            {progress.label} · {Math.round(progress.fraction * 100)} %
          </div>
        </div>
      ) : null}
      <div ref={host} data-testid="run-terminal" style={{ height: 360, background: "#0b0f14", borderRadius: 8, padding: 6, border: "1px solid var(--border)" }} />
    </div>
  );
}
