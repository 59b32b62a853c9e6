import { describe, expect, it } from "vitest";
import { FIO_PRESETS_SIZED_BEYOND_RAM, fioParamsSchema, fioPresets, presetSizeMiB } from "./params";

const GiB = 2 ** 30;

describe("presets sized beyond RAM", () => {
  it("are the QD1 synchronous random presets, and they validate", () => {
    for (const id of FIO_PRESETS_SIZED_BEYOND_RAM) {
      const p = fioPresets[id]!.params;
      expect(p).toMatchObject({ ioengine: "psync", iodepth: 1, numjobs: 1, blockSizeKiB: 4, direct: true });
      expect(fioParamsSchema.safeParse({ ...p, target: "/srv/t" }).success, id).toBe(true);
    }
  });

  it("are sized per target by presetSizeMiB (probes/core/sizing.test.ts covers the host profiles)", () => {
    for (const id of FIO_PRESETS_SIZED_BEYOND_RAM) {
      expect(presetSizeMiB(24 * GiB, { freeBytes: 12 * GiB, fsType: "tmpfs", medium: "memory" }, fioPresets[id]!.params), id).toBe(6 * 1024);
    }
  });
});
