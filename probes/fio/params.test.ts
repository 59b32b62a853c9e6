import { describe, expect, it } from "vitest";
import { FIO_PRESETS_SIZED_BEYOND_RAM, fioParamsSchema, fioPresets, sizeBeyondRamMiB } from "./params";

const GiB = 2 ** 30;

describe("presets sized beyond RAM", () => {
  it("are the QD1 synchronous random presets, and they validate", () => {
    for (const id of FIO_PRESETS_SIZED_BEYOND_RAM) {
      const p = fioPresets[id]!.params;
      expect(p).toMatchObject({ ioengine: "psync", iodepth: 1, numjobs: 1, blockSizeKiB: 4, direct: true });
      expect(fioParamsSchema.safeParse({ ...p, target: "/srv/t" }).success, id).toBe(true);
    }
  });

  it("take twice the RAM in whole GiB", () => {
    expect(sizeBeyondRamMiB(16 * GiB, null)).toBe(32 * 1024);
    expect(sizeBeyondRamMiB(7.6 * GiB, 500 * GiB)).toBe(16 * 1024);
  });

  it("leave a fifth of the target free, and never go below 1 GiB", () => {
    expect(sizeBeyondRamMiB(64 * GiB, 50 * GiB)).toBe(40 * 1024);
    expect(sizeBeyondRamMiB(64 * GiB, 0.5 * GiB)).toBe(1024);
  });

  it("say nothing when the RAM size is unknown", () => {
    expect(sizeBeyondRamMiB(null, 100 * GiB)).toBeNull();
    expect(sizeBeyondRamMiB(0, 100 * GiB)).toBeNull();
  });
});
