import { describe, expect, it } from "vitest";
import type { CompareRun } from "../../compare/types";
import { shareIncludeSchema } from "../../api/schemas/comparisons";
import { readRunProfile } from "../../../probes/profile/read-profile";
import type { BlockDeviceInfo, RunProfileSnapshot, SnapshotTarget } from "../../../probes/profile/types";
import { redactForShare, redactShare } from "./redact-share";
import type { ExperimentSnapshot } from "./snapshot";

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

// Everything a share must not publish by default, planted together in every string field.
const PLANTED = "filer01.secret.corp:/srv/secret-project-alpha db01.secret.corp addr=10.1.2.3 fd00:1:2::17 wwn-0x5000c500a1b2c3d4";
const LEAKS = ["secret", "filer01", "db01", "10.1.2.3", "fd00:1:2::17", "5000c500a1b2c3d4", "project-alpha"];

const target: SnapshotTarget & { path: string } = {
  path: "/srv/secret-project-alpha/db01",
  fsType: PLANTED,
  source: PLANTED,
  mountPoint: "/srv/secret-project-alpha",
  mountOptions: [PLANTED, "addr=10.1.2.3", "clientaddr=fd00:1:2::17", "mountaddr=10.1.2.3", "server=filer01.secret.corp", "upperdir=/srv/secret-project-alpha", "username=secret-project-alpha", "x=db01"],
  device: PLANTED,
  rotational: false,
  model: PLANTED,
  medium: "ssd",
  totalBytes: 1,
  freeBytes: 1,
};
/** Every field of RunProfileSnapshot, optional ones included (typed: a new field must be added here). */
const fullProfile: Required<Omit<RunProfileSnapshot, "target" | "memory" | "numa" | "blockDevices">> & {
  target: SnapshotTarget;
  memory: Required<RunProfileSnapshot["memory"]>;
  numa: Required<RunProfileSnapshot["numa"]>;
  blockDevices: Required<BlockDeviceInfo>[];
} = {
  collectedAt: PLANTED,
  hostname: "db01.secret.corp",
  kernel: { release: PLANTED, version: PLANTED },
  distro: PLANTED,
  os: { id: PLANTED, idLike: [PLANTED], versionId: PLANTED },
  cpu: { model: PLANTED, count: 2, sockets: 1 },
  memory: { totalBytes: 1, dirtyableBytes: 1, dirtyThresholdBytes: 1, dirtyBackgroundThresholdBytes: 1 },
  numa: { nodes: 1, cpusPerNode: { "0": PLANTED }, freeBytesPerNode: { "0": 1 } },
  blockDevices: [{ name: PLANTED, model: PLANTED, sizeBytes: 1, rotational: false, type: PLANTED, scheduler: PLANTED, hwQueueDepth: 32 }],
  targets: [target],
  sysctls: { "vm.dirty_ratio": PLANTED, "kernel.hostname": "db01.secret.corp" },
  thp: { enabled: PLANTED, defrag: PLANTED },
  target,
};

/** Every string in a JSON value with where it sits, keys of records included. */
function strings(v: unknown, at = ""): [string, string][] {
  if (typeof v === "string") return [[at, v]];
  if (Array.isArray(v)) return v.flatMap((x, i) => strings(x, `${at}[${i}]`));
  if (v && typeof v === "object") return Object.entries(v).flatMap(([k, x]) => strings(x, `${at}.${k}`));
  return [];
}

describe("redactForShare and the profile, field by field", () => {
  it("the fixture is a whole profile: the reader keeps every field and every string in it is a secret", () => {
    expect(readRunProfile(fullProfile)).toEqual(fullProfile);
    const plain = strings(fullProfile).filter(([at, s]) => !at.endsWith(".medium") && !LEAKS.some((l) => s.includes(l)));
    expect(plain).toEqual([]);
  });

  it("no planted host name, address, path or disk id survives the default redaction", () => {
    const r = { ...run("1", "host:1", "db01", "/srv/secret-project-alpha/db01"), profile: fullProfile as unknown as Record<string, unknown> };
    const out = redactForShare([r], shareIncludeSchema.parse(undefined))[0]!;
    const leaked = strings(out).filter(([, s]) => LEAKS.some((l) => s.toLowerCase().includes(l)));
    expect(leaked).toEqual([]);
    // What a comparison reads is still there.
    expect(out.profile?.memory).toMatchObject({ totalBytes: 1 });
    expect((out.profile?.target as { path: string }).path).toBe("path 1");
  });

  it("an NFS mount: the server and its addresses get aliases, the export path a path alias, harmless options stay", () => {
    const nfs = { ...target, fsType: "nfs4", source: "filer01.secret.corp:/vol/project-alpha", device: null, model: null, mountOptions: ["rw", "relatime", "vers=4.2", "rsize=1048576", "addr=10.1.2.3", "clientaddr=10.1.2.99", "mountaddr=[fd00::17]", "sec=krb5", "context=\"system_u:object_r:nfs_t:s0\""] };
    const r = { ...run("1", "host:1", "db01", nfs.path), profile: { hostname: "db01", target: nfs } };
    const t = redactForShare([r], shareIncludeSchema.parse(undefined))[0]!.profile?.target as SnapshotTarget;
    expect(t.source).toBe("server 1:path 3");
    expect(t.fsType).toBe("nfs4");
    expect(t.mountOptions).toEqual(["rw", "relatime", "vers=4.2", "rsize=1048576", "addr=address 1", "clientaddr=address 2", "mountaddr=address 3", "sec=krb5", "context=\"system_u:object_r:nfs_t:s0\""]);
    // Ticked, the sharer publishes them.
    const open = redactForShare([r], shareIncludeSchema.parse({ hostnames: true, paths: true }))[0]!.profile?.target as SnapshotTarget;
    expect(open.source).toBe("filer01.secret.corp:/vol/project-alpha");
    expect(open.mountOptions).toContain("addr=10.1.2.3");
  });

  it("models and the host name only when ticked; unknown keys an agent added never", () => {
    const p = { ...fullProfile, cpu: { model: "AMD EPYC 7B13", count: 2, sockets: 1 }, extra: { anything: "db01.secret.corp" } };
    const r = { ...run("1", "host:1", "db01", "/srv/x"), profile: p as unknown as Record<string, unknown> };
    const hidden = redactForShare([r], shareIncludeSchema.parse(undefined))[0]!.profile!;
    expect(hidden).not.toHaveProperty("hostname");
    expect(hidden).not.toHaveProperty("extra");
    expect((hidden.cpu as { model: string | null }).model).toBeNull();
    const shown = redactForShare([r], shareIncludeSchema.parse({ models: true, hostnames: true }))[0]!.profile!;
    expect((shown.cpu as { model: string | null }).model).toBe("AMD EPYC 7B13");
    expect(shown.hostname).toBe("db01.secret.corp");
    expect(shown).not.toHaveProperty("extra");
  });
});

describe("redactForShare keeps what is not a secret", () => {
  it("file-system names, tunable names and distributions are not taken for host names", () => {
    const r = { ...run("1", "host:1", "debian", "/srv/x"), fsType: "fuse.sshfs", profile: { hostname: "debian", distro: "Debian GNU/Linux 12 (bookworm)", kernel: { release: "6.1.0-18-amd64", version: "#1 SMP PREEMPT_DYNAMIC Debian 6.1.76-1 (2024-02-01)" }, target: { path: "/srv/x", fsType: "fuse.sshfs", mountOptions: ["rw", "user_id=0"] } } };
    const out = redactForShare([r], shareIncludeSchema.parse(undefined))[0]!;
    expect(out.fsType).toBe("fuse.sshfs");
    expect(out.profile).toMatchObject({ distro: "Debian GNU/Linux 12 (bookworm)", kernel: { release: "6.1.0-18-amd64", version: "#1 SMP PREEMPT_DYNAMIC Debian 6.1.76-1 (2024-02-01)" }, target: { fsType: "fuse.sshfs", mountOptions: ["rw", "user_id=0"] } });
    const e = redactShare({ runs: [r], include: shareIncludeSchema.parse(undefined), experiment: { status: "FINISHED", decisionMessage: null, reverted: true, policy: { min: 3, max: 3, cvTarget: 2.5 }, arms: [{ label: "vm.swappiness=10", setup: "thp.enabled=never", median: 1, cv: 1, runs: 3 }], unit: "MiB/s", verdict: [], warnings: [] } }).experiment!;
    expect(e.arms[0]).toMatchObject({ label: "vm.swappiness=10", setup: "thp.enabled=never" });
  });
});

describe("redactShare and an experiment's verdict", () => {
  const a = "/srv/secret-project-alpha/db01";
  const b = "/srv/secret-project-alpha/db02-with-a-rather-long-name-cut-at-sixty";
  const cut = b.slice(0, 60);
  const experiment: ExperimentSnapshot = {
    status: "FINISHED",
    decisionMessage: `Kept ${a}: nothing was changed on db01.corp.`,
    reverted: null,
    policy: { min: 3, max: 3, cvTarget: 2.5 },
    arms: [
      { label: a, setup: "", median: 100, cv: 1, runs: 3 },
      { label: cut, setup: `target ${b}`, median: 120, cv: 1, runs: 3 },
    ],
    unit: "MiB/s",
    verdict: [{ sentence: `${cut} wrote 20 % faster than ${a} (90 % confidence 15–25 %, 3 runs per arm).`, metric: "throughput", baseline: a, arm: cut, ratio: 1.2, ciLow: 1.15, ciHigh: 1.25 }],
    warnings: [`2 runs on ${a} were left out: the device under ${a}/pb-run was busy (10.1.2.3).`],
  };
  const runs = [run("1", "host:1", "db01", a), run("2", "host:1", "db01", b)];

  it("arm labels, sentences, the decision and warnings use the runs' own aliases", () => {
    const out = redactShare({ runs, include: shareIncludeSchema.parse(undefined), experiment });
    expect(out.runs.map((r) => r.params.target)).toEqual(["path 1", "path 2"]);
    const e = out.experiment!;
    expect(e.arms.map((x) => x.label)).toEqual(["path 1", "path 2"]);
    expect(e.verdict[0]!.sentence).toBe("path 2 wrote 20 % faster than path 1 (90 % confidence 15–25 %, 3 runs per arm).");
    expect([e.verdict[0]!.baseline, e.verdict[0]!.arm]).toEqual(["path 1", "path 2"]);
    expect(e.arms[1]!.setup).toBe("target path 2");
    expect(e.decisionMessage).toBe("Kept path 1: nothing was changed on host A.");
    const text = JSON.stringify(out.runs) + JSON.stringify(e) + out.text(`dd: ${a} vs ${cut}`);
    for (const leak of LEAKS) expect(text).not.toContain(leak);
    expect(out.text(`dd: ${a} vs ${cut}`)).toBe("dd: path 1 vs path 2");
  });

  it("with paths ticked the experiment keeps its directories", () => {
    const out = redactShare({ runs, include: shareIncludeSchema.parse({ paths: true }), experiment });
    expect(out.experiment!.arms.map((x) => x.label)).toEqual([a, cut]);
    expect(out.experiment!.verdict[0]!.sentence).toContain(a);
  });
});
