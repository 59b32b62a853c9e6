import { describe, expect, it } from "vitest";
import { buildDdCommand, ddRequiredFreeBytes } from "./command";
import { ddParamsSchema, ddPresets } from "./params";

const preset = (name: string, sizeMiB = 256) =>
  ddParamsSchema.parse({ ...ddPresets[name]?.params, sizeMiB, target: "/srv/probes/target" });

describe("dd params", () => {
  it("accepts { target, sizeMiB } alone with direct, fdatasync, 1 MiB blocks", () => {
    expect(ddParamsSchema.parse({ target: "/t", sizeMiB: 256 })).toEqual({
      target: "/t", sizeMiB: 256, mode: "write", blockSizeKiB: 1024, direct: true, fdatasync: true,
    });
  });

  it("bounds size and block size", () => {
    expect(ddParamsSchema.safeParse({ target: "/t", sizeMiB: 0 }).success).toBe(false);
    expect(ddParamsSchema.safeParse({ target: "/t", sizeMiB: 1048577 }).success).toBe(false);
    expect(ddParamsSchema.safeParse({ target: "/t", sizeMiB: 1048576 }).success).toBe(true);
    expect(ddParamsSchema.safeParse({ target: "/t", sizeMiB: 1, blockSizeKiB: 1000 }).success).toBe(false);
    expect(ddParamsSchema.safeParse({ target: "/t", sizeMiB: 3, blockSizeKiB: 2048 }).success).toBe(false);
    expect(ddParamsSchema.safeParse({ target: "/t", sizeMiB: 4, blockSizeKiB: 2048 }).success).toBe(true);
    expect(ddParamsSchema.safeParse({ target: "t", sizeMiB: 4 }).success).toBe(false);
    expect(ddParamsSchema.safeParse({ target: "/t", sizeMiB: 4, mode: "copy" }).success).toBe(false);
  });

  it("has the four presets other code references", () => {
    expect(Object.keys(ddPresets).sort()).toEqual(["read-direct", "write-buffered", "write-direct", "write-nosync"]);
  });
});

describe("dd command", () => {
  it("write-direct", () => {
    const cmd = buildDdCommand(preset("write-direct"));
    expect(cmd).toMatchObject({ file: "dd", cwd: "/srv/probes/target", env: { LC_ALL: "C" } });
    expect(cmd.args).toEqual([
      "if=/dev/zero", "of=/srv/probes/target/probebook-dd.tmp", "bs=1M", "count=256", "oflag=direct", "conv=fdatasync", "status=progress",
    ]);
    // kept for a following read-direct
    expect(cmd.files).toBeUndefined();
  });

  it("read-direct reads the file a write left and removes it afterwards", () => {
    const cmd = buildDdCommand(preset("read-direct"));
    expect(cmd.args).toEqual(["if=/srv/probes/target/probebook-dd.tmp", "of=/dev/null", "bs=1M", "count=256", "iflag=direct", "status=progress"]);
    expect(cmd.files).toEqual(["/srv/probes/target/probebook-dd.tmp"]);
    expect(ddRequiredFreeBytes(preset("read-direct"))).toBe(0);
  });

  it("write-buffered and write-nosync", () => {
    expect(buildDdCommand(preset("write-buffered")).args).toEqual([
      "if=/dev/zero", "of=/srv/probes/target/probebook-dd.tmp", "bs=1M", "count=256", "conv=fdatasync", "status=progress",
    ]);
    expect(buildDdCommand(preset("write-nosync")).args).toEqual([
      "if=/dev/zero", "of=/srv/probes/target/probebook-dd.tmp", "bs=1M", "count=256", "status=progress",
    ]);
    expect(ddRequiredFreeBytes(preset("write-nosync"))).toBe(256 * 1024 * 1024);
  });

  it("honours keepFile and small block sizes", () => {
    const p = ddParamsSchema.parse({ target: "/t", sizeMiB: 8, blockSizeKiB: 64, keepFile: false });
    const cmd = buildDdCommand(p);
    expect(cmd.args).toContain("bs=64K");
    expect(cmd.args).toContain("count=128");
    expect(cmd.files).toEqual(["/t/probebook-dd.tmp"]);
  });

  it("scales the timeout with the size", () => {
    expect(buildDdCommand(preset("write-direct", 1)).timeoutSec).toBe(61);
    expect(buildDdCommand(preset("write-direct", 1048576)).timeoutSec).toBe(60 + 209716);
  });
});
