// iozone prints no clock: its progress over time is rebuilt from the result. In auto mode each
// cell is one test of the file at one record size, run for file size ÷ throughput seconds, in
// the order the table prints them; so a cell ends at the sum of the cells before it plus its own
// time. The axis is the time spent measuring (iozone's setup and the gaps between tests are not
// in it), each point the throughput of the test that ended there.
import { displayUnit } from "../core/metrics";
import type { Measurement } from "../core/types";
import type { ProgressSeries } from "../core/view";

/** The series from measurements in the order the table printed them (live-progress.ts passes the cells so far). */
export function iozoneSeriesOf(measurements: readonly Measurement[]): ProgressSeries[] {
  const bySeries = new Map<string, ProgressSeries>();
  let t = 0;
  for (const m of measurements) {
    const fileKiB = Number(m.dims.file_kib);
    const d = displayUnit(m.unit);
    if (!(fileKiB > 0) || !(m.value > 0) || !/^(KiB|KB|kB)\/s$/.test(m.unit)) continue;
    t += fileKiB / m.value;
    let s = bySeries.get(m.metric);
    if (!s) bySeries.set(m.metric, (s = { key: `iozone.${m.metric}`, label: `iozone ${m.metric.replace(/_/g, " ")}`, unit: d.unit, points: [] }));
    s.points.push({ t: Math.round(t * 1000) / 1000, v: m.value * d.scale });
  }
  return [...bySeries.values()];
}
