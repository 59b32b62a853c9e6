import { describe, expect, it } from "vitest";
import { ddDirection } from "./direction";

describe("ddDirection", () => {
  it("reads params.mode, the preset, or unknown for imports", () => {
    expect(ddDirection({ mode: "read" })).toBe("read");
    expect(ddDirection({ preset: "dd:read-direct" })).toBe("read");
    expect(ddDirection({ preset: "write-buffered" })).toBe("write");
    expect(ddDirection({})).toBe("unknown direction");
    expect(ddDirection(null)).toBe("unknown direction");
  });
});
