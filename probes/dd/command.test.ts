import { describe, expect, it } from "vitest";
import { buildDdCommand, ddRequiredFreeBytes } from "./command";
import { ddParamsSchema, ddPresets } from "./params";

const preset = (name: string, sizeMiB = 256) =>
  ddParamsSchema.parse({ ...ddPresets[name]?.params, sizeMiB, target: "/srv/probes/target" });
const RUN = "/srv/probes/target/probebook-run-abc123";

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
    const cmd = buildDdCommand(preset("write-direct"), RUN);
    expect(cmd).toMatchObject({ file: "dd", cwd: RUN, env: { LC_ALL: "C" } });
    expect(cmd.args).toEqual([
      "if=/dev/zero", `of=${RUN}/probebook-dd.tmp`, "bs=1M", "count=256", "oflag=direct,nofollow", "conv=excl,fdatasync", "status=progress",
    ]);
    // created only by dd itself, in the run's private directory, and removed with it
    expect(cmd.files).toEqual([`${RUN}/probebook-dd.tmp`]);
    expect(cmd.layout).toBeUndefined();
  });

  it("read-direct reads a file the agent lays out first in the run directory", () => {
    const cmd = buildDdCommand(preset("read-direct"), RUN);
    expect(cmd.args).toEqual([`if=${RUN}/probebook-dd.tmp`, "of=/dev/null", "bs=1M", "count=256", "iflag=direct,nofollow", "status=progress"]);
    expect(cmd.layout).toEqual([{ file: `${RUN}/probebook-dd.tmp`, bytes: 256 * 1024 * 1024 }]);
    expect(ddRequiredFreeBytes(preset("read-direct"))).toBe(256 * 1024 * 1024);
  });

  it("write-buffered and write-nosync", () => {
    expect(buildDdCommand(preset("write-buffered"), RUN).args).toEqual([
      "if=/dev/zero", `of=${RUN}/probebook-dd.tmp`, "bs=1M", "count=256", "oflag=nofollow", "conv=excl,fdatasync", "status=progress",
    ]);
    expect(buildDdCommand(preset("write-nosync"), RUN).args).toEqual([
      "if=/dev/zero", `of=${RUN}/probebook-dd.tmp`, "bs=1M", "count=256", "oflag=nofollow", "conv=excl", "status=progress",
    ]);
    expect(ddRequiredFreeBytes(preset("write-nosync"))).toBe(256 * 1024 * 1024);
  });

  it("honours small block sizes", () => {
    const p = ddParamsSchema.parse({ target: "/t", sizeMiB: 8, blockSizeKiB: 64 });
    const cmd = buildDdCommand(p, "/t/probebook-run-1");
    expect(cmd.args).toContain("bs=64K");
    expect(cmd.args).toContain("count=128");
    expect(cmd.files).toEqual(["/t/probebook-run-1/probebook-dd.tmp"]);
  });

  it("scales the timeout with the size", () => {
    expect(buildDdCommand(preset("write-direct", 1), RUN).timeoutSec).toBe(61);
    expect(buildDdCommand(preset("write-direct", 1048576), RUN).timeoutSec).toBe(60 + 209716);
  });
});
