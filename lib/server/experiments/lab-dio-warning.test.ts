import { describe, expect, it } from "vitest";
import { labWithoutDirectIo } from "./advance-experiment";

describe("a verdict from lab runs whose loop device had no direct I/O", () => {
  const lab = (dio: boolean | undefined, dioReason?: string) => ({ setup: { lab: { fsType: "ext4", dio, ...(dioReason ? { dioReason } : {}) }, tunables: [] } });
  it("says so, with the kernel's reason, once for all such runs", () => {
    const w = labWithoutDirectIo([lab(true), lab(false, "the backing file system refused O_DIRECT (losetup: EINVAL)"), lab(false)]);
    expect(w).toHaveLength(1);
    expect(w[0]).toMatch(/^2 lab runs used a loop device without direct I\/O \(the backing file system refused O_DIRECT/);
    expect(w[0]).toMatch(/backing file system's page cache/);
  });
  it("says nothing when every loop device bypassed the cache, or for runs with no lab or reports from older agents", () => {
    expect(labWithoutDirectIo([lab(true), lab(true)])).toEqual([]);
    expect(labWithoutDirectIo([{ setup: null }, { setup: { lab: null, tunables: [] } }, lab(undefined)])).toEqual([]);
  });
});
