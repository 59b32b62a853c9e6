"use client";

import { useCallback, useMemo, useRef, useState } from "react";
import { ENDED_STATUSES } from "@/lib/run-status";
import type { PanelSample } from "@/lib/timeline/panels";
import { getProbe } from "@/probes/catalog";
import type { ProgressSeries } from "@/probes/core/view";
import { RunTerminal } from "./run-terminal";
import { RunTimeline } from "./run-timeline";

interface Props {
  runId: string;
  probe: string;
  params: unknown;
  live: boolean;
  /** Stored samples when the page was rendered (all of them for an ended run). */
  samples: PanelSample[];
  /** The probe's progress from its stored result and log (ended runs). */
  progress: ProgressSeries[];
}

/**
 * The run's terminal and its timeline on one event stream: chunks feed the terminal and the
 * probe's progress, telemetry events feed the panels (merged by t, since a reconnect replays them).
 */
export function RunLive({ runId, probe, params, live, samples: initial, progress: initialProgress }: Props) {
  const [samples, setSamples] = useState<PanelSample[]>(initial);
  const [text, setText] = useState("");
  // Samples that reached this page while the run was still going: the live half of the timeline.
  const [liveReceived, setLiveReceived] = useState(0);
  const ended = useRef(!live);
  const onStatus = useCallback((status: string) => {
    if (ENDED_STATUSES.has(status)) ended.current = true;
  }, []);
  const onTelemetry = useCallback((incoming: unknown[]) => {
    if (!ended.current) setLiveReceived((n) => n + incoming.length);
    setSamples((prev) => {
      const byT = new Map(prev.map((s) => [s.t, s]));
      for (const s of incoming as PanelSample[]) byT.set(s.t, s);
      return [...byT.values()].sort((a, b) => a.t - b.t);
    });
  }, []);
  const progress = useMemo(() => {
    if (!live || !text) return initialProgress;
    try {
      return getProbe(probe)?.view.progress?.(null, text) ?? [];
    } catch {
      return initialProgress;
    }
  }, [live, text, probe, initialProgress]);
  return (
    <>
      <RunTerminal runId={runId} probe={probe} params={params} live={live} onText={live ? setText : undefined} onTelemetry={onTelemetry} onStatus={onStatus} />
      <h2>Timeline</h2>
      <div data-testid="timeline-live-received" data-count={liveReceived} hidden />
      <RunTimeline samples={samples} progress={progress} live={live} />
    </>
  );
}
