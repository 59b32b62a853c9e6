// iozone's progress over time (see progress-cells.ts for how cells become seconds).
import type { NormalisedResult } from "../core/types";
import type { ProgressSeries } from "../core/view";
import { parseIozone } from "./parse";
import { iozoneSeriesOf } from "./progress-cells";

export { iozoneSeriesOf };

/** While the run goes on there is no stored result yet: the cells printed so far are read from the log. */
export function iozoneProgress(stored: NormalisedResult | null, log: string): ProgressSeries[] {
  let result = stored;
  if (!result && log) {
    const parsed = parseIozone(log);
    result = parsed.ok ? parsed.result : null;
  }
  return iozoneSeriesOf(result?.measurements ?? []);
}
