import type { ReferenceMapping } from "../core/probe";
import { fioPresets } from "./params";

const writes = (operation: string) => /write/i.test(operation);

/** Published random-I/O bandwidth (value in MB/s, operation "random read|write"): one run per direction. */
export const fioReference: ReferenceMapping = {
  runPerOperation: true,
  measurement: (row, value) => ({ metric: "bw", value: value * 1e6, unit: "B/s", dims: { job: String(row.operation), direction: writes(String(row.operation)) ? "write" : "read" } }),
  /**
   * What a reference run measured, as parameters: the preset that re-runs it (the write preset
   * for write rows) and that preset's method (rw, block size, engine, depth, jobs, direct), so the
   * compare page's "what differs" shows only what a host's run changed (size, runtime, target).
   * File size and runtime are left out: the article's were its own (117 GB, 381 MB per test).
   */
  params: (operation, dataset) => {
    const ref = writes(operation) ? (dataset.writePreset ?? dataset.preset) : dataset.preset;
    const [probe, id] = ref?.split(":", 2) ?? [];
    if (!ref || probe !== "fio" || !id || !Object.hasOwn(fioPresets, id)) return {};
    const { sizeMiB: _size, runtimeSec: _runtime, ...method } = structuredClone(fioPresets[id]!.params) as Record<string, unknown>;
    return { preset: ref, ...method };
  },
};
