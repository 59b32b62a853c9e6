// The use cases pages and form actions reach the database through, on a real database.
import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { allProbes } from "../../probes/catalog";
import { db } from "../db";
import { AppError } from "../http/app-error";
import { connectTestDatabase } from "../testing/db";
import { getHost } from "./hosts/get-host";
import { listHostProfiles } from "./hosts/list-host-profiles";
import { listLaunchHosts } from "./hosts/list-launch-hosts";
import { setMediumOverride } from "./hosts/set-medium-override";
import { getRunLog } from "./runs/get-run-log";
import { createApiToken } from "./tokens/create-api-token";
import { listApiTokens } from "./tokens/list-api-tokens";
import { revokeApiToken } from "./tokens/revoke-api-token";
import { changeRole } from "./users/change-role";
import { createUser } from "./users/create-user";

connectTestDatabase();

const tag = () => crypto.randomUUID().slice(0, 8);
const user = (role: "VIEWER" | "OPERATOR" | "ADMIN") => createUser({ email: `u-${tag()}@example.test`, password: "long enough", role });

async function rejection(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

describe("host use cases", () => {
  it("getHost answers 404 for an unknown host and the stored host otherwise", async () => {
    expect((await rejection(getHost({ id: crypto.randomUUID() }))).code).toBe("NOT_FOUND");
    const h = await db().host.create({ data: { name: `host-${tag()}` } });
    expect(await getHost({ id: h.id })).toMatchObject({ id: h.id, name: h.name, mediumOverrides: {} });
  });

  it("setMediumOverride sets and clears one device's medium", async () => {
    const h = await db().host.create({ data: { name: `host-${tag()}` } });
    await setMediumOverride({ hostId: h.id, device: "vda", medium: "ssd" });
    await setMediumOverride({ hostId: h.id, device: "sdb", medium: "disk" });
    expect((await getHost({ id: h.id })).mediumOverrides).toEqual({ vda: "ssd", sdb: "disk" });
    await setMediumOverride({ hostId: h.id, device: "vda", medium: "auto" });
    expect((await getHost({ id: h.id })).mediumOverrides).toEqual({ sdb: "disk" });
  });

  it("listHostProfiles gives an anonymous visitor no host, and a signed-in viewer every host", async () => {
    const name = `host-${tag()}`;
    await db().host.create({ data: { name, profile: { targets: [{ path: "/srv/secret-project-alpha", fsType: "xfs", mountOptions: ["rw", "relatime"] }] } } });
    // The public /tunables page reads hosts only through this use case.
    expect(await listHostProfiles({ actor: null })).toEqual([]);
    const viewer = await user("VIEWER");
    const seen = await listHostProfiles({ actor: { userId: viewer.id, email: viewer.email, role: "VIEWER", via: "session" } });
    expect(seen.find((h) => h.name === name)?.profile.targets.map((t) => t.path)).toEqual(["/srv/secret-project-alpha"]);
  });

  it("reads profiles and launch targets through the one profile reader", async () => {
    const name = `host-${tag()}`;
    await db().host.create({
      data: {
        name,
        profile: {
          sysctls: { "vm.swappiness": 60 },
          memory: { totalBytes: 2 ** 30 },
          targets: [{ path: "/srv/a", fsType: "xfs", medium: "ssd", freeBytes: 100 * 2 ** 30 }, { nopath: 1 }],
        },
        capabilities: { agentVersion: "1", tools: { fio: { installed: false, version: null, path: null } }, allowedDirs: ["/srv/a", "/srv/b"] },
      },
    });
    const viewer = await user("VIEWER");
    const read = (await listHostProfiles({ actor: { userId: viewer.id, email: viewer.email, role: "VIEWER", via: "session" } })).find((h) => h.name === name);
    expect(read?.profile.sysctls).toEqual({ "vm.swappiness": "60" });
    expect(read?.profile.targets.map((t) => t.path)).toEqual(["/srv/a"]);
    const launch = (await listLaunchHosts()).find((h) => h.name === name);
    // The forms size presets per target from these facts and the host's RAM.
    expect(launch?.memTotalBytes).toBe(2 ** 30);
    expect(launch?.targets).toEqual([
      { path: "/srv/a", fsType: "xfs", medium: "ssd", freeBytes: 100 * 2 ** 30 },
      { path: "/srv/b", fsType: null, medium: null, freeBytes: null },
    ]);
    // Every probe that runs fio is unavailable there, and only those.
    const onFio = allProbes().filter((p) => p.tool.binary === "fio").map((p) => p.id);
    expect(onFio.length).toBeGreaterThan(0);
    expect(Object.keys(launch?.missingTools ?? {})).toEqual(onFio);
  });
});

describe("run log", () => {
  it("getRunLog joins the chunks in order and answers 404 for an unknown run", async () => {
    expect((await rejection(getRunLog({ id: crypto.randomUUID() }))).code).toBe("NOT_FOUND");
    const h = await db().host.create({ data: { name: `host-${tag()}` } });
    const run = await db().probeRun.create({ data: { hostId: h.id, probe: "dd", params: { target: "/t" } } });
    await db().runLogChunk.createMany({ data: [{ runId: run.id, seq: 1, data: "world" }, { runId: run.id, seq: 0, data: "hello " }] });
    expect(await getRunLog({ id: run.id })).toEqual({ probe: "dd", log: "hello world", prunedAt: null });
  });
});

describe("users and tokens", () => {
  it("an admin cannot remove their own admin role, but can change another user's", async () => {
    const admin = await user("ADMIN");
    const other = await user("VIEWER");
    const err = await rejection(changeRole({ actorId: admin.id, userId: admin.id, role: "OPERATOR" }));
    expect(err.message).toBe("You cannot remove your own admin role.");
    await changeRole({ actorId: admin.id, userId: other.id, role: "OPERATOR" });
    expect((await db().user.findUniqueOrThrow({ where: { id: other.id } })).role).toBe("OPERATOR");
  });

  it("users list and revoke their own tokens; only admins revoke someone else's", async () => {
    const owner = await user("VIEWER");
    const stranger = await user("OPERATOR");
    const admin = await user("ADMIN");
    const t = await createApiToken({ userId: owner.id, name: "ci" });
    expect((await listApiTokens({ userId: owner.id })).map((x) => x.id)).toEqual([t.id]);
    expect((await listApiTokens({ userId: stranger.id })).map((x) => x.id)).toEqual([]);
    expect((await listApiTokens({ userId: null })).map((x) => x.id)).toContain(t.id);

    expect((await rejection(revokeApiToken({ tokenId: t.id, actor: { userId: stranger.id, role: "OPERATOR" } }))).code).toBe("FORBIDDEN");
    expect((await listApiTokens({ userId: owner.id }))[0]?.revokedAt).toBeNull();
    await revokeApiToken({ tokenId: t.id, actor: { userId: admin.id, role: "ADMIN" } });
    expect((await listApiTokens({ userId: owner.id }))[0]?.revokedAt).toBeInstanceOf(Date);
    expect((await rejection(revokeApiToken({ tokenId: crypto.randomUUID(), actor: { userId: owner.id, role: "VIEWER" } }))).code).toBe("NOT_FOUND");
  });
});
