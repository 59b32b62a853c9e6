import { execFileSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseOutput } from "../catalog";
import { localDay } from "../agent/history";
import { isSaFileName, sadfHistoryCommand, sadfJsonFileDate } from "./history";
import { timelineFromSar } from "./timeline";

const busy = path.join(__dirname, "fixtures", "history", "sa-busy");

function sadf(file: string): string {
  const cmd = sadfHistoryCommand(file);
  return execFileSync(cmd.file, cmd.args, { env: { ...process.env, ...cmd.env }, encoding: "utf8" });
}

describe("sysstat history files", () => {
  it("names: saDD and saYYYYMMDD, not the sarDD text reports", () => {
    for (const name of ["sa01", "sa31", "sa20261123"]) expect(isSaFileName(name)).toBe(true);
    for (const name of ["sar23", "sa1", "sa2026112", "sa23.gz", "sa23~", "xsa23"]) expect(isSaFileName(name)).toBe(false);
  });

  it("reads a file made by sadc with the host's sadf: header date, samples the sar parser and the timeline read", () => {
    const out = sadf(busy);
    expect(sadfJsonFileDate(out)).toBe("2026-11-23");
    const parsed = parseOutput("sar", out);
    if (!parsed.ok) throw new Error(parsed.error);
    expect(parsed.result.format).toMatch(/sadf -j/);
    const metrics = new Set(parsed.result.measurements.map((m) => m.metric));
    for (const m of ["%iowait", "%util", "aqu-sz", "pgscand/s", "kbdirty", "runq-sz", "tps"]) expect(metrics).toContain(m);
    const timeline = timelineFromSar(parsed.result.measurements);
    expect(timeline.points).toHaveLength(7); // sadc 1 8: the first record is the baseline
    expect(timeline.points[0]!.values["device.util"]).toBeGreaterThanOrEqual(0);
  });

  it("finds no header date in other text", () => {
    expect(sadfJsonFileDate('{"sysstat": {"hosts": []}}')).toBeNull();
    expect(sadfJsonFileDate("Linux 6.1 (vm) 2026-11-23 _x86_64_ (2 CPU)")).toBeNull();
  });

  it("today is the local calendar date", () => {
    expect(localDay(new Date(2026, 0, 5, 23, 59))).toBe("2026-01-05");
  });
});
