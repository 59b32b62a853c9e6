import { describe, expect, it } from "vitest";
import { buildIozoneCommand, iozoneRequiredFreeBytes } from "./command";
import { iozoneParamsSchema, iozonePresets } from "./params";

const withTarget = (preset: string, target = "/srv/probes/target") => {
  const p = iozonePresets[preset];
  if (!p) throw new Error(`no preset ${preset}`);
  return iozoneParamsSchema.parse({ ...p.params, target });
};

describe("iozone command", () => {
  it("builds the classic seed command for ext-article", () => {
    const cmd = buildIozoneCommand(withTarget("ext-article"), withTarget("ext-article").target);
    expect(cmd.file).toBe("iozone");
    expect(cmd.args).toEqual(["-a", "-s", "4g", "-q", "256", "-y", "4", "-f", "/srv/probes/target/probebook-iozone.tmp"]);
    expect(cmd.env).toEqual({ LC_ALL: "C" });
    expect(cmd.cwd).toBe("/srv/probes/target");
    expect(cmd.files).toEqual(["/srv/probes/target/probebook-iozone.tmp"]);
  });

  it("adds -i and -I for auto-64m-direct", () => {
    const cmd = buildIozoneCommand(withTarget("auto-64m-direct", "/mnt/data/"), withTarget("auto-64m-direct", "/mnt/data/").target);
    expect(cmd.args).toEqual([
      "-a", "-s", "64m", "-q", "256", "-y", "4", "-i", "0", "-i", "1", "-i", "2", "-I", "-f", "/mnt/data/probebook-iozone.tmp",
    ]);
  });

  it("gives each throughput process its own file inside the target", () => {
    const cmd = buildIozoneCommand(withTarget("throughput-2"), withTarget("throughput-2").target);
    expect(cmd.args).toEqual([
      "-t", "2", "-s", "32m", "-r", "64k", "-i", "0", "-i", "1",
      "-F", "/srv/probes/target/probebook-iozone.0.tmp", "/srv/probes/target/probebook-iozone.1.tmp",
    ]);
    expect(cmd.files).toHaveLength(2);
    expect(iozoneRequiredFreeBytes(withTarget("throughput-2"))).toBe(2 * 32 * 1024 * 1024);
  });

  it("derives a timeout that grows with the amount of data", () => {
    const small = buildIozoneCommand(withTarget("auto-64m"), withTarget("auto-64m").target).timeoutSec;
    const big = buildIozoneCommand(withTarget("ext-article"), withTarget("ext-article").target).timeoutSec;
    expect(small).toBeGreaterThanOrEqual(600);
    expect(big).toBeGreaterThan(small);
    expect(big).toBeLessThanOrEqual(7 * 24 * 3600);
  });

  it("never passes anything but validated values", () => {
    for (const name of Object.keys(iozonePresets)) {
      const cmd = buildIozoneCommand(withTarget(name), withTarget(name).target);
      for (const arg of cmd.args) expect(arg).toMatch(/^(-[a-zA-Z]|\d+[kmg]?|\/srv\/probes\/target\/probebook-iozone(\.\d+)?\.tmp)$/);
    }
  });
});
