// The telemetry panels of a run's timeline, as data: which sample fields each panel draws and in
// which unit. The run page (Recharts) and the compare page (server-rendered SVG) both draw these,
// so "device util" means the same series in both places.
import type { RunTelemetrySample } from "../../probes/protocol/run-events";

/**
 * The fields of a telemetry sample the panels read: the live wire checks exactly these
 * (probes/protocol/run-events.ts), and lib/server/runs/get-run-telemetry.ts's TelemetryPoint has them.
 */
export type PanelSample = RunTelemetrySample;

export interface PanelDef {
  id: string;
  title: string;
  unit: string;
  series: { key: string; label: string; value(s: PanelSample): number | null }[];
}

const KiB_PER_MiB = 1024;

export const TELEMETRY_PANELS: readonly PanelDef[] = [
  {
    id: "device-throughput",
    title: "Device throughput",
    unit: "MiB/s",
    series: [
      { key: "read", label: "read", value: (s) => (s.device ? s.device.rkBs / KiB_PER_MiB : null) },
      { key: "write", label: "write", value: (s) => (s.device ? s.device.wkBs / KiB_PER_MiB : null) },
    ],
  },
  {
    id: "device-util",
    title: "Device utilisation and queue",
    unit: "% busy",
    series: [{ key: "util", label: "%util", value: (s) => s.device?.util ?? null }],
  },
  {
    id: "device-await",
    title: "Device latency (await)",
    unit: "ms",
    series: [
      { key: "rAwait", label: "r_await", value: (s) => s.device?.rAwait ?? null },
      { key: "wAwait", label: "w_await", value: (s) => s.device?.wAwait ?? null },
    ],
  },
  {
    id: "iowait",
    title: "CPU iowait and steal",
    unit: "% of CPU",
    series: [
      { key: "iowait", label: "%iowait", value: (s) => s.cpu.iowait },
      { key: "steal", label: "%steal", value: (s) => s.cpu.steal },
    ],
  },
  {
    id: "dirty",
    title: "Dirty and write-back pages",
    unit: "MiB",
    series: [
      { key: "dirty", label: "dirty", value: (s) => s.memory.dirty / KiB_PER_MiB },
      { key: "writeback", label: "writeback", value: (s) => s.memory.writeback / KiB_PER_MiB },
    ],
  },
  {
    id: "scanning",
    title: "Page scanning (direct = allocating tasks stalled)",
    unit: "pages/s",
    series: [
      { key: "pgscand", label: "pgscand/s (direct)", value: (s) => s.paging.pgscand },
      { key: "pgscank", label: "pgscank/s (kswapd)", value: (s) => s.paging.pgscank },
    ],
  },
];

/** One panel's rows for a chart: { t, <series key>: value } per sample. */
export function panelRows(panel: PanelDef, samples: readonly PanelSample[]): Record<string, number>[] {
  return samples.map((s) => {
    const row: Record<string, number> = { t: s.t };
    for (const series of panel.series) {
      const v = series.value(s);
      if (v !== null && Number.isFinite(v)) row[series.key] = Math.round(v * 100) / 100;
    }
    return row;
  });
}

/** Where a run came from, as far as its telemetry goes. */
export type TelemetryOrigin = "AGENT" | "IMPORTED" | "REFERENCE" | "HISTORY";

/**
 * The one line that stands in for the telemetry panels when a finished run has no samples: only a
 * launched run is sampled by the agent, so empty frames would say nothing about the others.
 */
export function noTelemetryNote(origin: TelemetryOrigin): string {
  if (origin === "IMPORTED") return "No telemetry: imported runs carry only the tool's output.";
  if (origin === "HISTORY") return "No telemetry: a host's history day carries only sysstat's own samples (drawn under Diagnosis).";
  if (origin === "REFERENCE") return "No telemetry: reference runs carry only the published figures.";
  return "No telemetry was recorded for this run.";
}

/**
 * The panels a run's timeline draws: the device panels only for a target with a device of its
 * own, and none the page draws elsewhere (`drawnElsewhere`: a sar run's diagnosis draws dirty
 * memory and page scanning from sar's own samples).
 */
export function panelsToDraw(samples: readonly PanelSample[], drawnElsewhere: readonly string[] = []): PanelDef[] {
  const hasDevice = samples.some((s) => s.device);
  return TELEMETRY_PANELS.filter((p) => (hasDevice || !p.id.startsWith("device")) && !drawnElsewhere.includes(p.id));
}
