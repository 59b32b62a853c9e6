"use client";

import { useEffect, useRef, useState } from "react";
import "@xterm/xterm/css/xterm.css";
import { collapseCollectedFiles } from "@/probes/core/collected-files";
import { terminalHeight, terminalWriter } from "./terminal-text";
import type { RunOutputFeed } from "./use-run-events";

/**
 * The run's output in a terminal: draws what the live view's feed has so far, then each piece as
 * it arrives. It opens no stream of its own (see useRunEvents).
 */
export function RunTerminal({ output }: { output: RunOutputFeed }) {
  const host = useRef<HTMLDivElement>(null);
  // The box fits what was written, up to a maximum (three lines need no 360 px).
  const [lines, setLines] = useState(0);

  useEffect(() => {
    let disposed = false;
    let cleanup: () => void = () => undefined;
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
      // The box's height follows the lines written (state below): fit the rows to it each time.
      const observer = new ResizeObserver(() => fit.fit());
      observer.observe(host.current);
      // Files the agent appended after the tool (per-second logs) are for the parser.
      const collapse = collapseCollectedFiles();
      // Line ends as xterm needs them, dd's unbroken last progress line, fio's wrapped ETA.
      const write = terminalWriter();
      const draw = (data: string) =>
        term.write(write(collapse(data)), () => {
          if (!disposed) setLines(term.buffer.active.baseY + term.buffer.active.cursorY + (term.buffer.active.cursorX > 0 ? 1 : 0));
        });
      // What arrived while xterm loaded, then the rest as it comes: no piece is missed or drawn twice.
      draw(output.text());
      const unsubscribe = output.subscribe(draw);
      cleanup = () => {
        unsubscribe();
        window.removeEventListener("resize", onResize);
        observer.disconnect();
        term.dispose();
      };
    })();
    return () => {
      disposed = true;
      cleanup();
    };
  }, [output]);

  return <div ref={host} data-testid="run-terminal" data-lines={lines} style={{ height: terminalHeight(lines), boxSizing: "border-box", background: "#0b0f14", borderRadius: 8, padding: 6, border: "1px solid var(--border)" }} />;
}
