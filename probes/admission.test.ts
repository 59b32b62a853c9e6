import { describe, expect, it } from "vitest";
import { admitProbe, FREE_SPACE_MARGIN_BYTES, insideAllowed, labImageRefusal, type HostFacts } from "./admission";

const MiB = 2 ** 20;
const host = (over: Partial<HostFacts> = {}): HostFacts => ({ allowedDirs: ["/srv/pb"], toolInstalled: true, freeBytesIn: () => 10 * 1024 * MiB, ...over });
const dd = (params: Record<string, unknown> = {}) => ({ probe: "dd", params: { target: "/srv/pb/a", sizeMiB: 64, blockSizeKiB: 1024, ...params } });
const kind = (r: ReturnType<typeof admitProbe>) => (r.ok ? "ok" : r.refusal.kind);

describe("admitProbe", () => {
  it("admits a valid run inside the allowed dirs with room for it and the margin", () => {
    const r = admitProbe(dd(), host());
    expect(r).toMatchObject({ ok: true, target: "/srv/pb/a", writesBytes: 64 * MiB });
  });

  it("refuses in the order a person fixes things: probe, parameters, directory, tool, space", () => {
    const nothing = host({ allowedDirs: [], toolInstalled: false, freeBytesIn: () => 0 });
    expect(kind(admitProbe({ probe: "bash", params: {} }, nothing))).toBe("unknown-probe");
    expect(kind(admitProbe(dd({ sizeMiB: -1 }), nothing))).toBe("invalid-params");
    expect(kind(admitProbe(dd(), nothing))).toBe("outside-allowed");
    expect(kind(admitProbe(dd(), { ...nothing, allowedDirs: ["/srv/pb"] }))).toBe("tool-missing");
    expect(kind(admitProbe(dd(), { ...nothing, allowedDirs: ["/srv/pb"], toolInstalled: true }))).toBe("no-space");
  });

  it("keeps the 64 MiB margin on top of what the run writes", () => {
    expect(FREE_SPACE_MARGIN_BYTES).toBe(64 * MiB);
    const at = (free: number) => admitProbe(dd(), host({ freeBytesIn: () => free }));
    expect(at(128 * MiB).ok).toBe(true);
    expect(at(128 * MiB - 1)).toMatchObject({ ok: false, refusal: { kind: "no-space", writesBytes: 64 * MiB, needsBytes: 128 * MiB, freeBytes: 128 * MiB - 1 } });
  });

  it("leaves unknown facts to whoever knows them, and refuses an unreadable free space only for a run that writes", () => {
    expect(admitProbe(dd(), host({ toolInstalled: null, freeBytesIn: () => null })).ok).toBe(true);
    expect(kind(admitProbe(dd(), host({ freeBytesIn: () => ({ unreadable: "EACCES" }) })))).toBe("free-unknown");
    const sar = { probe: "sar", params: { target: "/srv/pb", sections: ["B"], interval: 1, count: 1 } };
    expect(admitProbe(sar, host({ freeBytesIn: () => ({ unreadable: "EACCES" }) })).ok).toBe(true);
  });
});

describe("insideAllowed", () => {
  it("matches the dir and below, never a sibling sharing its prefix", () => {
    expect(insideAllowed("/srv/pb", ["/srv/pb/"])).toBe(true);
    expect(insideAllowed("/srv/pb/x/../y", ["/srv/pb"])).toBe(true);
    expect(insideAllowed("/srv/pb2", ["/srv/pb"])).toBe(false);
    expect(insideAllowed("/srv/pb/../etc", ["/srv/pb"])).toBe(false);
    expect(insideAllowed("/anything", ["/"])).toBe(true);
  });
});

describe("labImageRefusal", () => {
  it("wants the image plus the same margin", () => {
    expect(labImageRefusal(320 * MiB, 384 * MiB)).toBeNull();
    expect(labImageRefusal(320 * MiB, 384 * MiB - 1)).toEqual({ needsBytes: 384 * MiB, freeBytes: 384 * MiB - 1 });
    expect(labImageRefusal(320 * MiB, null)).toBeNull();
  });
});
