// The browser's catalog: what the run page needs while a run is live, one line per probe, and
// nothing else. probes/catalog.ts brings every probe's parser, argv builder, schemas and
// reference tables; the page needs only each probe's live progress (the bar and the timeline's
// series, probes/<tool>/live-progress.ts), so this registry keeps the parsers out of the browser
// bundle (lib/client-imports.test.ts checks the imports, e2e/foundation/client-bundles.spec.ts
// the production build's chunks). Charts of a result are drawn
// from the probe's view on the server and reach the page as data.
import type { ProbeId, ProbeParamsById } from "./catalog";
import type { LiveProgress } from "./core/live-progress";
import { ddLiveProgress } from "./dd/live-progress";
import { fioLiveProgress } from "./fio/live-progress";
import { fsmetaLiveProgress } from "./fsmeta/live-progress";
import { iozoneLiveProgress } from "./iozone/live-progress";
import { sarLiveProgress } from "./sar/live-progress";

export type { LiveProgress } from "./core/live-progress";

const live: { readonly [K in ProbeId]: (params: ProbeParamsById[K]) => LiveProgress } = {
  iozone: iozoneLiveProgress,
  dd: ddLiveProgress,
  sar: sarLiveProgress,
  fio: fioLiveProgress,
  fsmeta: fsmetaLiveProgress,
};

/** The probes this catalog knows, for the test that holds it against probes/catalog.ts. */
export const liveProbeIds = Object.keys(live);

/**
 * A tracker for a run of `probe`, or null for a probe this page does not know. The parameters are
 * the run's own, validated by the server when the run was created (the page has no schema to
 * check them again without bringing the catalog along); a tracker that trips over them shows no
 * progress rather than throwing (see guarded in core/live-progress.ts).
 */
export function liveProgressFor(probe: string, params: unknown): LiveProgress | null {
  if (!Object.hasOwn(live, probe)) return null;
  const make = live[probe as ProbeId] as (p: unknown) => LiveProgress;
  try {
    return make(params);
  } catch {
    return null;
  }
}
