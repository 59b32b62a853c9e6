import { execFileSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { historyDayRequestSchema } from "../../../probes/protocol/schemas";
import { sadfHistoryCommand } from "../../../probes/sar/history";
import { db } from "../../db";
import { connectTestDatabase } from "../../testing/db";
import { diagnoseResult } from "../../diagnosis/run-diagnosis";
import { getRun } from "../runs/get-run";
import { listHistoryDays } from "../runs/list-history-days";
import { listHostRuns } from "../runs/list-host-runs";
import { storeHistoryDay } from "./store-history-day";

connectTestDatabase();

const fixture = path.join(__dirname, "..", "..", "..", "probes", "sar", "fixtures", "history", "sa-busy");
const cmd = sadfHistoryCommand(fixture);
const output = execFileSync(cmd.file, cmd.args, { env: { ...process.env, ...cmd.env }, encoding: "utf8" });
const DAY = "2026-11-23";

describe("storeHistoryDay", () => {
  it("stores a sadc day once per host, even when two uploads race, and the run diagnoses", async () => {
    const host = await db().host.create({ data: { name: "history host", profile: { kernel: { release: "6.1" } } } });
    const other = await db().host.create({ data: { name: "other host" } });
    const body = { day: DAY, file: "/var/log/sysstat/sa23", output };
    const [a, b] = await Promise.all([storeHistoryDay({ hostId: host.id, body }), storeHistoryDay({ hostId: host.id, body })]);
    expect([a.created, b.created].sort()).toEqual([false, true]);
    expect(a.runId).toBe(b.runId);
    const again = await storeHistoryDay({ hostId: host.id, body: { ...body, file: "/var/log/sysstat/sa20261123" } });
    expect(again).toEqual({ runId: a.runId, created: false });
    // Another host's same day is its own run.
    const theirs = await storeHistoryDay({ hostId: other.id, body });
    expect(theirs.created).toBe(true);

    const run = await getRun({ id: a.runId });
    expect(run).toMatchObject({ probe: "sar", status: "SUCCEEDED", origin: "HISTORY", historyDay: DAY, hostId: host.id });
    expect(run.profile).toEqual({ kernel: { release: "6.1" } });
    expect(run.notes).toContain("/var/log/sysstat/sa23");
    const chunks = await db().runLogChunk.findMany({ where: { runId: a.runId }, orderBy: { seq: "asc" } });
    expect(chunks.map((c) => c.data).join("")).toBe(output);
    expect(diagnoseResult(run.result)?.timeline.points).toHaveLength(7);

    expect(await listHistoryDays({ hostId: host.id })).toEqual([{ runId: a.runId, day: DAY, warnings: expect.any(Number) }]);
    expect(await listHostRuns({ hostId: host.id })).toEqual([]);
  });

  it("refuses a day that differs from the file's header date, and output that is not sadf -j", async () => {
    const host = await db().host.create({ data: { name: "history host 2" } });
    await expect(storeHistoryDay({ hostId: host.id, body: { day: "2026-11-22", file: "sa22", output } })).rejects.toThrow(
      "The day 2026-11-22 does not match the file's own header date 2026-11-23.",
    );
    await expect(storeHistoryDay({ hostId: host.id, body: { day: DAY, file: "sa23", output: "Linux 6.1 (vm)\n" } })).rejects.toThrow(/not what sar makes of a daily history file: no file date/);
    expect(await db().probeRun.count({ where: { hostId: host.id } })).toBe(0);
  });

  // Issue 27 item 10: the day must be real, finished and plausible, whatever the file's header says.
  it("refuses impossible, unfinished and absurd days with a 400 naming day, and stores nothing", async () => {
    const host = await db().host.create({ data: { name: "history host 3" } });
    const withDate = (day: string) => output.replace(/("file-date"\s*:\s*")\d{4}-\d{2}-\d{2}/, `$1${day}`);
    const now = new Date("2026-11-25T03:00:00Z");
    for (const day of ["9999-12-31", "0001-01-01", "2026-11-26", "1998-12-31"]) {
      const err = await storeHistoryDay({ hostId: host.id, body: { day, file: "sa", output: withDate(day) }, now }).catch((e: unknown) => e);
      expect(err, day).toMatchObject({ status: 400, fieldErrors: { day: [expect.any(String)] } });
    }
    expect(await db().probeRun.count({ where: { hostId: host.id } })).toBe(0);
    // UTC's today may be a finished day on a host east of UTC; the header date still has to match.
    const stored = await storeHistoryDay({ hostId: host.id, body: { day: "2026-11-25", file: "sa", output: withDate("2026-11-25") }, now });
    expect(stored.created).toBe(true);
  });

  it("the request schema refuses a day that is not on the calendar", () => {
    for (const day of ["2026-13-45", "2026-02-29", "2026-06-31", "2026-00-10", "2026-01-00"]) {
      const r = historyDayRequestSchema.safeParse({ day, file: "sa", output: "x" });
      expect(r.success, day).toBe(false);
      expect(r.error?.issues[0]?.path).toEqual(["day"]);
    }
    for (const day of ["2024-02-29", "2026-12-31", "0001-01-01", "9999-12-31"]) expect(historyDayRequestSchema.safeParse({ day, file: "sa", output: "x" }).success, day).toBe(true);
  });
});
