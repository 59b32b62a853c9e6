import { describe, expect, it } from "vitest";
import { runWhen } from "./format-time";

describe("runWhen", () => {
  it("shows a reference run's source year, or undated, never its placeholder created time", () => {
    const placeholder = "2009-01-01T00:00:00.000Z";
    expect(runWhen({ origin: "REFERENCE", createdAt: placeholder, profile: { reference: { year: 2012 } } })).toBe("published 2012");
    expect(runWhen({ origin: "REFERENCE", createdAt: placeholder, profile: { reference: { year: "undated (c. 2006)" } } })).toBe("undated");
    expect(runWhen({ origin: "REFERENCE", createdAt: placeholder })).toBe("undated");
  });

  it("shows other runs to the minute in UTC", () => {
    expect(runWhen({ origin: "IMPORTED", createdAt: "2026-11-23T22:52:10.000Z" })).toBe("2026-11-23 22:52");
  });
});
