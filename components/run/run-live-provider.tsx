"use client";

import { createContext, useContext, type ReactNode } from "react";
import { useRunEvents, type RunEvents, type RunEventsInput } from "./use-run-events";

const RunLiveContext = createContext<RunEvents | null>(null);

/**
 * The run page's live view: it owns the run's one event stream (useRunEvents) and hands what it
 * reads to the parts of the page that show it — the status badge in the heading, the progress
 * bar, terminal and timeline under "Output" — which only render.
 */
export function RunLiveProvider({ children, ...input }: RunEventsInput & { children: ReactNode }) {
  const events = useRunEvents(input);
  return <RunLiveContext.Provider value={events}>{children}</RunLiveContext.Provider>;
}

/** The live view's state, or null outside a RunLiveProvider. */
export function useRunLive(): RunEvents | null {
  return useContext(RunLiveContext);
}
