import { describe, expect, it } from "vitest";
import { listDatasets } from "../../../content/datasets";
import { referenceRunsFromDatasets } from "./reference-runs";

describe("reference runs from the guides' datasets", () => {
  const runs = referenceRunsFromDatasets(listDatasets());

  it("turns the ext2/ext3/ext4 IOzone table into one iozone run per file system", () => {
    const ext = runs.filter((r) => r.datasetId === "ext-iozone-2009");
    expect(ext.map((r) => r.fsType).sort()).toEqual(["ext2", "ext3", "ext4"]);
    const ext2 = ext.find((r) => r.fsType === "ext2")!;
    expect(ext2.result.measurements).toHaveLength(7 * 13);
    const write4 = ext2.result.measurements.find((m) => m.metric === "write" && m.dims.record_kib === 4);
    expect(write4).toEqual({ metric: "write", value: 218680, unit: "KiB/s", dims: { file_kib: 4194304, record_kib: 4 } });
  });

  it("keeps dd-style throughput per medium and direction in bytes per second", () => {
    const diskRead = runs.find((r) => r.datasetId === "baidu-media-sequential" && r.medium === "disk" && r.params.mode === "read")!;
    expect(diskRead.probe).toBe("dd");
    expect(diskRead.result.measurements[0]).toMatchObject({ metric: "throughput", value: 145.59e6, unit: "B/s" });
  });

  it("ties the random 4 KB figures to the QD1 synchronous fio presets, per direction", () => {
    const random = runs.filter((r) => r.datasetId === "baidu-media-random-4k");
    expect(random.map((r) => r.hostLabel.split(" · ").slice(-2).join(" · ")).sort()).toEqual([
      "disk · random read", "disk · random write", "flash · random read", "flash · random write", "memory · random write",
    ]);
    const flashRead = random.find((r) => r.medium === "ssd" && r.params.rw === "randread")!;
    expect(flashRead.params).toEqual({ preset: "fio:rand-read-4k", rw: "randread", blockSizeKiB: 4, ioengine: "psync", iodepth: 1, numjobs: 1, direct: true });
    expect(flashRead.result.measurements).toEqual([{ metric: "bw", value: 14.9e6, unit: "B/s", dims: { job: "random read", direction: "read" } }]);
    const diskWrite = random.find((r) => r.medium === "disk" && r.params.rw === "randwrite")!;
    expect(diskWrite.params.preset).toBe("fio:rand-write-4k");
  });

  it("gives every run a stable id so seeding twice changes nothing", () => {
    const again = referenceRunsFromDatasets(listDatasets());
    expect(again.map((r) => r.id)).toEqual(runs.map((r) => r.id));
    expect(new Set(runs.map((r) => r.id)).size).toBe(runs.length);
  });
});
