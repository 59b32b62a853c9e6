import { describe, expect, it } from "vitest";
import type { CompareRun } from "../../compare/types";
import { shareIncludeSchema } from "../../api/schemas/comparisons";
import { redactForShare } from "./redact-share";

const run = (id: string, hostKey: string, hostName: string, target: string): CompareRun => ({
  id,
  label: `${hostName} · ssd · ext4 · 2026-11-23`,
  probe: "dd",
  origin: "AGENT",
  status: "SUCCEEDED",
  hostName,
  hostKey,
  createdAt: "2026-11-23T10:00:00.000Z",
  repeatGroup: null,
  params: { target, sizeMiB: 64 },
  fsType: "ext4",
  medium: "ssd",
  profile: { hostname: `${hostName}.corp`, kernel: { release: "6.1" }, target: { path: target, mountPoint: target, fsType: "ext4" } },
  result: null,
});

describe("redactForShare", () => {
  it("hides names and paths by default but keeps which runs share a host or a directory", () => {
    const out = redactForShare(
      [run("1", "host:a", "db1", "/srv/a"), run("2", "host:a", "db1", "/srv/b"), run("3", "host:b", "db2", "/srv/a")],
      shareIncludeSchema.parse(undefined),
    );
    expect(out.map((r) => r.hostName)).toEqual(["host A", "host A", "host B"]);
    expect(out.map((r) => r.params.target)).toEqual(["path 1", "path 2", "path 1"]);
    expect(new Set(out.map((r) => r.label)).size).toBe(3);
    const text = JSON.stringify(out);
    expect(text).not.toMatch(/db1|db2|\/srv|corp/);
    expect(text).toContain("6.1");
  });
});

describe("redactForShare and flags", () => {
  const flagged = { ...run("a", "host:1", "db01", "/srv/secret"), flags: [{ code: "write-not-on-device", title: "Write did not reach the device", evidence: "vdb wrote 0 MiB under /srv/secret" }] };
  it("keeps what was found but drops the free-text evidence unless paths may be shown", () => {
    expect(redactForShare([flagged], shareIncludeSchema.parse(undefined))[0]!.flags).toEqual([{ code: "write-not-on-device", title: "Write did not reach the device", evidence: "" }]);
    expect(redactForShare([flagged], shareIncludeSchema.parse({ paths: true }))[0]!.flags?.[0]?.evidence).toContain("/srv/secret");
  });
});
