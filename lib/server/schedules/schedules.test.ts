import crypto from "node:crypto";
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Prisma } from "@prisma/client";
import { afterAll, describe, expect, it } from "vitest";
import type { Actor } from "../../auth/actor";
import type { Capabilities } from "../../../probes/protocol/schemas";
import { createScheduleSchema } from "../../api/schemas/schedules";
import { db } from "../../db";
import { connectTestDatabase } from "../../testing/db";
import { createSchedule } from "./create-schedule";
import { deleteSchedule } from "./delete-schedule";
import { fireDueSchedules } from "./fire-due-schedules";
import { getSchedule } from "./get-schedule";
import { listSchedules } from "./list-schedules";
import { setSchedulePaused } from "./pause-schedule";
import { updateSchedule } from "./update-schedule";

connectTestDatabase();

const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), "probebook-sched-")));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const caps: Capabilities = { agentVersion: "1", tools: { dd: { installed: true, version: "9.1", path: "/usr/bin/dd" } }, allowedDirs: [dir] };
const tag = () => crypto.randomUUID().slice(0, 8);

async function host({ online = true }: { online?: boolean } = {}) {
  return db().host.create({
    data: {
      name: `sched-${tag()}`,
      capabilities: caps as unknown as Prisma.InputJsonValue,
      profile: { targets: [{ path: dir, fsType: "ext4", freeBytes: 100 * 2 ** 30 }] } as Prisma.InputJsonValue,
      lastSeenAt: online ? new Date() : new Date(Date.now() - 10 * 60_000),
    },
  });
}

async function actor(role: "OPERATOR" | "ADMIN" = "OPERATOR"): Promise<Actor> {
  const u = await db().user.create({ data: { email: `sched-${tag()}@example.test`, passwordHash: "x", role } });
  return { userId: u.id, email: u.email, role, via: "session" };
}

const body = (hostIds: string[], extra: Record<string, unknown> = {}) =>
  createScheduleSchema.parse({ name: `s-${tag()}`, hostIds, probe: "dd", preset: "write-direct", params: { target: dir, sizeMiB: 16 }, intervalMinutes: 1, ...extra });

/** Puts the schedule's grid `agoSec` seconds back and makes it due now. */
async function makeDue(id: string, agoSec = 61) {
  await db().$executeRaw`UPDATE schedules SET created_at = created_at - make_interval(secs => ${agoSec}::int), next_fire_at = created_at - make_interval(secs => ${agoSec}::int) + interval '1 minute' WHERE id = ${id}::uuid`;
}

const firingsOf = (scheduleId: string) => db().scheduleFiring.findMany({ where: { scheduleId }, orderBy: { dueAt: "asc" } });

async function fieldErrorsOf(p: Promise<unknown>): Promise<Record<string, string[]>> {
  const err = (await p.then(() => null, (e: unknown) => e)) as { code?: string; fieldErrors?: Record<string, string[]> } | null;
  expect(err?.code).toBe("BAD_REQUEST");
  return err?.fieldErrors ?? {};
}

describe("schedule validation names the field", () => {
  it("cron and interval, cron syntax, time zone, quiet hours, hosts", async () => {
    const h = await host();
    const me = await actor();
    expect(Object.keys(await fieldErrorsOf(createSchedule({ input: body([h.id], { cron: "0 3 * * *" }), createdById: me.userId })))).toContain("cron");
    expect(Object.keys(await fieldErrorsOf(createSchedule({ input: body([h.id], { intervalMinutes: undefined }), createdById: me.userId })))).toContain("intervalMinutes");
    const cron = await fieldErrorsOf(createSchedule({ input: body([h.id], { intervalMinutes: undefined, cron: "0 0 3 * * *" }), createdById: me.userId }));
    expect(cron.cron?.[0]).toMatch(/seconds are not supported/);
    expect((await fieldErrorsOf(createSchedule({ input: body([h.id], { intervalMinutes: undefined, cron: "99 * * * *" }), createdById: me.userId }))).cron?.[0]).toMatch(/Not a valid cron/);
    expect((await fieldErrorsOf(createSchedule({ input: body([h.id], { timezone: "Mars/Olympus" }), createdById: me.userId }))).timezone?.[0]).toMatch(/Unknown time zone/);
    expect(Object.keys(await fieldErrorsOf(createSchedule({ input: body([h.id], { quietStart: "22:00" }), createdById: me.userId })))).toEqual(["quietEnd"]);
    expect((await fieldErrorsOf(createSchedule({ input: body([h.id, crypto.randomUUID()]), createdById: me.userId }))).hostIds?.[0]).toMatch(/^No host /);
  });

  it("preset, parameters and each host's admission, naming the host", async () => {
    const [h, me] = [await host(), await actor()];
    expect(Object.keys(await fieldErrorsOf(createSchedule({ input: body([h.id], { preset: "nope" }), createdById: me.userId })))).toEqual(["preset"]);
    expect(Object.keys(await fieldErrorsOf(createSchedule({ input: body([h.id], { params: { target: dir, sizeMiB: -5 } }), createdById: me.userId })))).toContain("params.sizeMiB");
    const outside = await fieldErrorsOf(createSchedule({ input: body([h.id], { params: { target: "/etc" } }), createdById: me.userId }));
    expect(outside["params.target"]?.[0]).toContain(h.name);
    const exp = await fieldErrorsOf(createSchedule({ input: body([h.id], { kind: "experiment", preset: undefined, params: { params: { target: dir }, arms: [] } }), createdById: me.userId }));
    expect(Object.keys(exp)).toContain("params.arms");
  });

  it("an operator changes only their own schedules; PATCH recomputes the next due time", async () => {
    const [h, me, other, admin] = [await host(), await actor(), await actor(), await actor("ADMIN")];
    const { id } = await createSchedule({ input: body([h.id]), createdById: me.userId });
    await expect(updateSchedule({ id, input: { name: "theirs" }, actor: other })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await updateSchedule({ id, input: { cron: "0 3 * * *", timezone: "Europe/Berlin" }, actor: me });
    const s = await getSchedule({ id });
    expect(s).toMatchObject({ cron: "0 3 * * *", intervalMinutes: null, describe: "cron 0 3 * * * (Europe/Berlin)" });
    expect(new Date(s.nextFireAt ?? 0).getTime()).toBeGreaterThan(Date.now());
    expect((await fieldErrorsOf(updateSchedule({ id, input: { cron: "bad" }, actor: me }))).cron).toBeDefined();
    await setSchedulePaused({ id, paused: true, actor: admin });
    expect((await getSchedule({ id })).nextFireAt).toBeNull();
    expect((await listSchedules()).some((x) => x.id === id && x.paused)).toBe(true);
    await deleteSchedule({ id, actor: me });
    await expect(getSchedule({ id })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});

describe("firing", () => {
  it("queues a run on an online idle host (with its schedule and series), records an offline host as missed", async () => {
    const [on, off, me] = [await host(), await host({ online: false }), await actor()];
    const { id } = await createSchedule({ input: body([on.id, off.id]), createdById: me.userId });
    await makeDue(id);
    await fireDueSchedules();
    const firings = await firingsOf(id);
    expect(firings.map((f) => [f.hostId, f.outcome]).sort()).toEqual([[on.id, "QUEUED"], [off.id, "MISSED_OFFLINE"]].sort());
    const queued = firings.find((f) => f.outcome === "QUEUED");
    const run = await db().probeRun.findUniqueOrThrow({ where: { id: queued?.runId ?? "" } });
    expect(run).toMatchObject({ status: "QUEUED", scheduleId: id, hostId: on.id, preset: "write-direct", createdById: me.userId });
    expect(run.seriesId).not.toBeNull();
    expect(await db().probeRun.count({ where: { hostId: off.id } })).toBe(0);
    const s = await db().schedule.findUniqueOrThrow({ where: { id } });
    expect(s.nextFireAt?.getTime()).toBeGreaterThan(Date.now());
    expect((await getSchedule({ id })).firings[0]?.hostName).toBeTruthy();
  });

  it("skips a busy host and, inside quiet hours, every host", async () => {
    const [busy, me] = [await host(), await actor()];
    await db().probeRun.create({ data: { hostId: busy.id, probe: "dd", params: {}, origin: "AGENT", status: "RUNNING" } });
    const { id } = await createSchedule({ input: body([busy.id]), createdById: me.userId });
    const hhmm = (d: Date) => d.toISOString().slice(11, 16);
    const idle = await host();
    const quiet = await createSchedule({ input: body([idle.id], { quietStart: hhmm(new Date(Date.now() - 2 * 3600_000)), quietEnd: hhmm(new Date(Date.now() + 2 * 3600_000)) }), createdById: me.userId });
    await makeDue(id);
    await makeDue(quiet.id);
    await fireDueSchedules();
    expect((await firingsOf(id)).map((f) => f.outcome)).toEqual(["SKIPPED_BUSY"]);
    expect((await firingsOf(quiet.id)).map((f) => f.outcome)).toEqual(["SKIPPED_QUIET"]);
    expect(await db().probeRun.count({ where: { scheduleId: { in: [id, quiet.id] } } })).toBe(0);
  });

  it("a paused schedule does not fire", async () => {
    const [h, me] = [await host(), await actor()];
    const { id } = await createSchedule({ input: body([h.id]), createdById: me.userId });
    await makeDue(id);
    await db().schedule.update({ where: { id }, data: { paused: true } });
    await fireDueSchedules();
    expect(await firingsOf(id)).toEqual([]);
  });

  it("after an outage fires the latest missed due time once and moves on", async () => {
    const [h, me] = [await host(), await actor()];
    const { id } = await createSchedule({ input: body([h.id], { skipIfBusy: false }), createdById: me.userId });
    await makeDue(id, 3 * 3600 + 7); // three hours of missed minutes
    await fireDueSchedules();
    await fireDueSchedules();
    const firings = await firingsOf(id);
    expect(firings).toHaveLength(1);
    expect(Date.now() - (firings[0]?.dueAt.getTime() ?? 0)).toBeLessThan(61_000);
    expect(await db().probeRun.count({ where: { scheduleId: id } })).toBe(1);
  });

  it("records a refusal at firing time (the target's space went away) as REFUSED with the reason", async () => {
    const [h, me] = [await host(), await actor()];
    const { id } = await createSchedule({ input: body([h.id]), createdById: me.userId });
    await db().host.update({ where: { id: h.id }, data: { profile: { targets: [{ path: dir, fsType: "ext4", freeBytes: 1 }] } } });
    await makeDue(id);
    await fireDueSchedules();
    const [f] = await firingsOf(id);
    expect(f).toMatchObject({ outcome: "REFUSED", runId: null });
    expect(f?.message).toMatch(/free/);
  });
});
