import { describe, expect, it } from "vitest";
import { labVolumeTooSmall } from "../../probes/lab/sizing";
import { labIozoneFileSizeMiB } from "./lab-sizing";

const GiB = 2 ** 30;

describe("IOzone's file size in a lab volume", () => {
  it("shrinks the article's 4 GiB file to a quarter of what the lab can hold, or refuses below 64 MiB", () => {
    const fit = labIozoneFileSizeMiB(8 * GiB)!;
    expect(fit % 64).toBe(0);
    expect(fit * 4 * 2 ** 20).toBeLessThan(8 * GiB);
    expect(fit).toBeGreaterThan(1024);
    // The agent accepts the volume this file needs in the lab's free space less its 64 MiB margin.
    expect(labVolumeTooSmall(8 * GiB - 64 * 2 ** 20, fit * 2 ** 20)).toBeNull();
    expect(labVolumeTooSmall(8 * GiB - 64 * 2 ** 20, (fit + 64) * 2 ** 20)).not.toBeNull();
    expect(labIozoneFileSizeMiB(300 * 2 ** 20)).toBeNull();
    expect(labIozoneFileSizeMiB(null)).toBeNull();
  });
});
