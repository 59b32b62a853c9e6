import { describe, expect, it } from "vitest";
import { safeNext } from "./safe-next";

describe("safeNext", () => {
  it("keeps same-site paths with query and fragment", () => {
    expect(safeNext("/runs")).toBe("/runs");
    expect(safeNext("/runs?status=QUEUED&x=%2F#top")).toBe("/runs?status=QUEUED&x=%2F#top");
    expect(safeNext("/hosts/abc")).toBe("/hosts/abc");
  });

  it("refuses every form of off-site target the attack run used or could use", () => {
    for (const evil of [
      "/%5C127.0.0.2:3999/phish",
      "/\\127.0.0.2:3999/phish",
      "\\\\evil.example",
      "//evil.example",
      "/\t/evil.example",
      "/\n/evil.example",
      "https://evil.example/",
      "javascript:alert(1)",
      "evil.example",
      "",
    ]) {
      expect(safeNext(evil), evil).toBe("/");
    }
    expect(safeNext(undefined)).toBe("/");
    expect(safeNext(null)).toBe("/");
  });

  it("what it returns resolves to this site for any base", () => {
    for (const p of ["/a/../b", "/./x", "/%2e%2e/y", "/a?next=//evil"]) {
      const out = safeNext(p);
      expect(new URL(out, "https://probebook.example").origin).toBe("https://probebook.example");
    }
  });
});
