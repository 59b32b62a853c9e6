import { describe, expect, it } from "vitest";
import { cronError, describeSchedule, inQuietHours, isValidTimezone, latestDueAtOrBefore, minuteOfDay, nextDueAfter, withJitter } from "./schedule-time";

const at = (iso: string) => new Date(iso);

describe("cron in a time zone", () => {
  const berlin3am = { cron: "0 3 * * *", intervalMinutes: null, timezone: "Europe/Berlin", createdAt: at("2026-01-01T00:00:00Z") };

  it("keeps 03:00 local across the spring DST change (UTC offset +1 → +2)", () => {
    expect(nextDueAfter(berlin3am, at("2026-03-27T12:00:00Z")).toISOString()).toBe("2026-03-28T02:00:00.000Z");
    expect(nextDueAfter(berlin3am, at("2026-03-28T12:00:00Z")).toISOString()).toBe("2026-03-29T01:00:00.000Z");
  });

  it("keeps 03:00 local across the autumn DST change", () => {
    expect(nextDueAfter(berlin3am, at("2026-10-24T12:00:00Z")).toISOString()).toBe("2026-10-25T02:00:00.000Z");
    expect(nextDueAfter(berlin3am, at("2026-10-25T12:00:00Z")).toISOString()).toBe("2026-10-26T02:00:00.000Z");
  });

  it("finds the latest due time at or before an instant, the instant itself included", () => {
    expect(latestDueAtOrBefore(berlin3am, at("2026-03-29T01:00:00Z"))?.toISOString()).toBe("2026-03-29T01:00:00.000Z");
    expect(latestDueAtOrBefore(berlin3am, at("2026-03-29T00:59:59Z"))?.toISOString()).toBe("2026-03-28T02:00:00.000Z");
  });

  it("refuses six fields (seconds) and nonsense, naming what it wants", () => {
    expect(cronError("0 0 3 * * *")).toMatch(/seconds are not supported/);
    expect(cronError("@daily")).toMatch(/five fields/);
    expect(cronError("61 * * * *")).toMatch(/Not a valid cron expression/);
    expect(cronError("*/15 * * * *")).toBeNull();
  });
});

describe("intervals stay on the creation grid", () => {
  const every15 = { cron: null, intervalMinutes: 15, timezone: "UTC", createdAt: at("2026-05-01T10:07:30Z") };

  it("gives createdAt + k × interval, whatever instant it is asked after", () => {
    expect(nextDueAfter(every15, at("2026-05-01T10:07:30Z")).toISOString()).toBe("2026-05-01T10:22:30.000Z");
    expect(nextDueAfter(every15, at("2026-05-01T13:00:00Z")).toISOString()).toBe("2026-05-01T13:07:30.000Z");
    expect(nextDueAfter(every15, at("2026-05-01T13:07:30Z")).toISOString()).toBe("2026-05-01T13:22:30.000Z");
    expect(nextDueAfter(every15, at("2026-04-30T00:00:00Z")).toISOString()).toBe("2026-05-01T10:22:30.000Z");
  });

  it("after an outage the latest missed time is one grid point, not every missed one", () => {
    expect(latestDueAtOrBefore(every15, at("2026-05-03T00:00:00Z"))?.toISOString()).toBe("2026-05-02T23:52:30.000Z");
    expect(latestDueAtOrBefore(every15, at("2026-05-01T10:10:00Z"))).toBeNull();
  });
});

describe("quiet hours", () => {
  const night = { timezone: "Europe/Berlin", quietStart: "22:00", quietEnd: "06:00" };

  it("wrap midnight on the schedule's wall clock", () => {
    // 21:59 and 06:00 Berlin summer time (UTC+2) are outside; 22:00, 00:30 and 05:59 inside.
    expect(inQuietHours(night, at("2026-07-01T19:59:00Z"))).toBe(false);
    expect(inQuietHours(night, at("2026-07-01T20:00:00Z"))).toBe(true);
    expect(inQuietHours(night, at("2026-07-01T22:30:00Z"))).toBe(true);
    expect(inQuietHours(night, at("2026-07-02T03:59:00Z"))).toBe(true);
    expect(inQuietHours(night, at("2026-07-02T04:00:00Z"))).toBe(false);
    // In winter (UTC+1) the same wall clock is an hour later in UTC.
    expect(inQuietHours(night, at("2026-01-15T20:30:00Z"))).toBe(false);
    expect(inQuietHours(night, at("2026-01-15T21:00:00Z"))).toBe(true);
  });

  it("a window within one day, and none without both ends", () => {
    const lunch = { timezone: "UTC", quietStart: "12:00", quietEnd: "13:00" };
    expect(inQuietHours(lunch, at("2026-07-01T12:30:00Z"))).toBe(true);
    expect(inQuietHours(lunch, at("2026-07-01T13:00:00Z"))).toBe(false);
    expect(inQuietHours({ timezone: "UTC", quietStart: null, quietEnd: null }, at("2026-07-01T12:30:00Z"))).toBe(false);
    expect(minuteOfDay(at("2026-07-01T00:00:00Z"), "Asia/Kolkata")).toBe(5 * 60 + 30);
  });
});

describe("time zones, jitter and words", () => {
  it("knows IANA zones and refuses others", () => {
    expect(isValidTimezone("Europe/Berlin")).toBe(true);
    expect(isValidTimezone("UTC")).toBe(true);
    expect(isValidTimezone("Mars/Olympus")).toBe(false);
    expect(isValidTimezone("")).toBe(false);
  });

  it("jitter adds 0..jitterSeconds whole seconds", () => {
    const due = at("2026-05-01T10:00:00Z");
    expect(withJitter(due, 0)).toEqual(due);
    expect(withJitter(due, 60, () => 0).toISOString()).toBe("2026-05-01T10:00:00.000Z");
    expect(withJitter(due, 60, () => 0.9999).toISOString()).toBe("2026-05-01T10:01:00.000Z");
  });

  it("describes a schedule in words", () => {
    expect(describeSchedule({ cron: null, intervalMinutes: 15, timezone: "UTC" })).toBe("every 15 minutes");
    expect(describeSchedule({ cron: null, intervalMinutes: 60, timezone: "UTC" })).toBe("every hour");
    expect(describeSchedule({ cron: "0 3 * * *", intervalMinutes: null, timezone: "Europe/Berlin" })).toBe("cron 0 3 * * * (Europe/Berlin)");
    expect(describeSchedule({ cron: null, intervalMinutes: 30, timezone: "Europe/Berlin", quietStart: "22:00", quietEnd: "06:00", jitterSeconds: 60 })).toBe(
      "every 30 minutes, not 22:00–06:00 (Europe/Berlin), up to 60 s late (jitter)",
    );
  });
});
