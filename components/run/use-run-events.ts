"use client";

import { useEffect, useMemo, useRef, useState } from "react";
import { useRouter } from "next/navigation";
import { ENDED_STATUSES } from "@/lib/run-status";
import type { PanelSample } from "@/lib/timeline/panels";
import type { Progress } from "@/probes/core/types";
import type { ProgressSeries } from "@/probes/core/view";
import { liveProgressFor } from "@/probes/live-catalog";
import { decodeRunEvent, type RunEvent } from "@/probes/protocol/run-events";

/**
 * The log as it streams, for the terminal to draw: what arrived so far, and each new piece as it
 * arrives. One feed per connection to the stream (a new one after the page's refresh replays the
 * log from the start, as a new terminal).
 */
export interface RunOutputFeed {
  text(): string;
  /** Calls `onData` with every piece from now on; returns the unsubscribe. */
  subscribe(onData: (data: string) => void): () => void;
}

function outputFeed(): RunOutputFeed & { push(data: string): void } {
  let text = "";
  const listeners = new Set<(data: string) => void>();
  return {
    text: () => text,
    subscribe(onData) {
      listeners.add(onData);
      return () => listeners.delete(onData);
    },
    push(data) {
      text += data;
      for (const l of listeners) l(data);
    },
  };
}

export interface RunEventsInput {
  runId: string;
  probe: string;
  params: unknown;
  live: boolean;
  status: string;
  /** Stored samples when the page was rendered (all of them for an ended run). */
  samples: PanelSample[];
  /** The probe's progress from its stored result and log (ended runs). */
  progress: ProgressSeries[];
}

export interface RunEvents {
  live: boolean;
  status: string;
  output: RunOutputFeed;
  samples: PanelSample[];
  /** Samples that reached this page while the run was still going: the live half of the timeline. */
  liveReceived: number;
  /** The progress bar, while the run is live and its output says how far it is. */
  bar: Progress | null;
  /** The probe's own series for the timeline: live from the output, else the stored ones. */
  series: readonly ProgressSeries[];
}

/**
 * The run page's one connection to the run's event stream (GET /api/runs/:id/events, the grammar
 * of probes/protocol/run-events.ts): chunks feed the terminal and the probe's live progress
 * (probes/live-catalog.ts, updated from each piece rather than from the whole log), telemetry
 * feeds the timeline (merged by t, since a reconnect replays it), status feeds the badge, and the
 * end refreshes a page that was live so it shows the stored result. EventSource does the
 * reconnecting, resuming after the last chunk with Last-Event-ID.
 */
export function useRunEvents({ runId, probe, params, live, status: initialStatus, samples: initialSamples, progress: storedSeries }: RunEventsInput): RunEvents {
  const router = useRouter();
  const [status, setStatus] = useState(initialStatus);
  const [samples, setSamples] = useState<PanelSample[]>(initialSamples);
  const [liveReceived, setLiveReceived] = useState(0);
  const [bar, setBar] = useState<Progress | null>(null);
  const [liveSeries, setLiveSeries] = useState<readonly ProgressSeries[] | null>(null);
  const [output, setOutput] = useState<ReturnType<typeof outputFeed>>(outputFeed);
  const ended = useRef(!live);
  // The parameters as one value: a refresh hands over an equal object, which must not reconnect.
  const paramsKey = JSON.stringify(params ?? null);

  useEffect(() => {
    const feed = outputFeed();
    setOutput(feed);
    setBar(null);
    setLiveSeries(null);
    // Progress only matters while the run is live; an ended run's page has the stored series.
    const tracker = live ? liveProgressFor(probe, JSON.parse(paramsKey) as unknown) : null;
    const source = new EventSource(`/api/runs/${runId}/events`);
    const on = (e: RunEvent) => {
      switch (e.event) {
        case "chunk":
          feed.push(e.chunk.data);
          if (tracker) {
            tracker.append(e.chunk.data);
            setBar(tracker.current());
            // The same array while nothing changed, so the timeline redraws only when it did;
            // the stored series stay until the output has text (a chunk may carry only samples).
            if (feed.text() !== "") setLiveSeries(tracker.series());
          }
          return;
        case "telemetry": {
          const incoming = e.samples;
          if (!ended.current) setLiveReceived((n) => n + incoming.length);
          setSamples((prev) => {
            const byT = new Map<number, PanelSample>(prev.map((s) => [s.t, s]));
            // The wire's sample type has the fields the panels read (probes/protocol/run-events.ts).
            for (const s of incoming) byT.set(s.t, s);
            return [...byT.values()].sort((a, b) => a.t - b.t);
          });
          return;
        }
        case "status":
          if (ENDED_STATUSES.has(e.status.status)) ended.current = true;
          setStatus(e.status.status);
          return;
        case "end":
          source.close();
          if (live) router.refresh();
          return;
      }
    };
    for (const name of ["chunk", "telemetry", "status", "end"] as const) {
      source.addEventListener(name, (m) => {
        const msg = m as MessageEvent<string>;
        // Only a chunk frame carries an id; other events keep the last one (the SSE spec).
        const d = decodeRunEvent(name, msg.data, name === "chunk" ? msg.lastEventId : undefined);
        // A frame this page cannot read is skipped: the stream and the rest of the log go on.
        if (d.ok) on(d.event);
      });
    }
    return () => source.close();
  }, [runId, probe, paramsKey, live, router]);

  const series = useMemo(() => (live && liveSeries ? liveSeries : storedSeries), [live, liveSeries, storedSeries]);
  return { live, status, output, samples, liveReceived, bar, series };
}
