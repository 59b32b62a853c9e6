import type { ReferenceMapping } from "../core/probe";
import { fioPresets } from "./params";

const writes = (operation: string) => /write/i.test(operation);

/** Published random-I/O bandwidth (value in MB/s, operation "random read|write"): one run per direction. */
export const fioReference: ReferenceMapping = {
  runPerOperation: true,
  measurement: (row, value) => {
    const direction = writes(String(row.operation)) ? "write" : "read";
    return { metric: "bw", value: value * 1e6, unit: "B/s", dims: { job: String(row.operation), direction } };
  },
  /**
   * What a fio reference run measured, as parameters: the preset that re-runs it (the write preset
   * for write rows) and that preset's method (rw, block size, engine, depth, jobs, direct), so the
   * compare page's "what differs" shows only what a host's run changed (size, runtime, target).
   * File size and runtime are left out: the article's were its own (117 GB, 381 MB per test).
   */
  params: (operation, { preset, writePreset }) => {
    const id = writes(operation) ? (writePreset ?? preset) : preset;
    const def = id?.startsWith("fio:") ? fioPresets[id.slice(4)] : undefined;
    if (!id || !def) return {};
    const { sizeMiB: _size, runtimeSec: _runtime, ...method } = def.params as Record<string, unknown>;
    return { preset: id, ...method };
  },
};
