import crypto from "node:crypto";
import type { Prisma } from "@prisma/client";
import { describe, expect, it } from "vitest";
import type { Actor } from "../../auth/actor";
import { profile } from "../../compare/testing";
import { db } from "../../db";
import { connectTestDatabase } from "../../testing/db";
import { createComparison } from "./create-comparison";
import { comparisonJson, getComparison } from "./get-comparison";
import { revokeComparison } from "./revoke-comparison";
import { goneShare } from "./shared-page";

connectTestDatabase();

async function run(hostName: string) {
  const host = await db().host.create({ data: { name: hostName } });
  const p = { ...profile({ fsType: "xfs", device: "nvme0n1" }), hostname: `${hostName}.corp.internal`, target: { path: "/srv/secret-project/db", mountPoint: "/srv/secret-project", source: "/dev/mapper/vg-secret", fsType: "xfs", device: "nvme0n1", mountOptions: ["rw"], medium: "ssd", freeBytes: 1 } };
  return db().probeRun.create({
    data: {
      hostId: host.id,
      probe: "dd",
      params: { target: "/srv/secret-project/db", sizeMiB: 64, mode: "write" },
      status: "SUCCEEDED",
      profile: p as Prisma.InputJsonValue,
      result: { tool: "dd", toolVersion: null, measurements: [{ metric: "throughput", value: 1e8, unit: "B/s", dims: {} }], warnings: [] },
      fsType: "xfs",
      medium: "ssd",
    },
    select: { id: true },
  });
}

async function user(role: "OPERATOR" | "ADMIN"): Promise<Actor> {
  const u = await db().user.create({ data: { email: `s-${crypto.randomUUID().slice(0, 8)}@example.com`, passwordHash: "x", role } });
  return { userId: u.id, email: u.email, role, via: "session" };
}

describe("share privacy", () => {
  it("by default the public JSON carries no host name, OS hostname or path", async () => {
    const name = `db-prod-${crypto.randomUUID().slice(0, 6)}`;
    const a = await run(name);
    const { slug } = await createComparison({ runIds: [a.id], title: "private by default" }, null);
    const text = JSON.stringify(comparisonJson(await getComparison(slug)));
    expect(text).not.toContain(name);
    expect(text).not.toContain("corp.internal");
    expect(text).not.toContain("/srv/secret-project");
    expect(text).not.toContain("/dev/mapper");
    expect(text).toContain("host A");
    // Facts for "what differs" remain.
    expect(text).toContain("xfs");
  });

  it("what the sharer ticks is included", async () => {
    const name = `db-open-${crypto.randomUUID().slice(0, 6)}`;
    const a = await run(name);
    const { slug } = await createComparison({ runIds: [a.id], title: "open", include: { hostnames: true, paths: true, kernel: false } }, null);
    const json = comparisonJson(await getComparison(slug));
    const text = JSON.stringify(json);
    expect(text).toContain(name);
    expect(text).toContain("/srv/secret-project/db");
    expect(json.runs[0]!.profile).not.toHaveProperty("kernel");
  });
});

describe("share revocation and expiry", () => {
  it("the sharer or an admin can withdraw a link; afterwards it is Gone (410)", async () => {
    const sharer = await user("OPERATOR");
    const other = await user("OPERATOR");
    const admin = await user("ADMIN");
    const a = await run(`h-${crypto.randomUUID().slice(0, 6)}`);
    const first = await createComparison({ runIds: [a.id], title: "one" }, sharer.userId);
    await expect(revokeComparison(first.slug, other)).rejects.toMatchObject({ code: "FORBIDDEN" });
    await getComparison(first.slug);
    await revokeComparison(first.slug, sharer);
    await expect(getComparison(first.slug)).rejects.toMatchObject({ code: "GONE", status: 410 });
    const second = await createComparison({ runIds: [a.id], title: "two" }, sharer.userId);
    await revokeComparison(second.slug, admin);
    await expect(getComparison(second.slug)).rejects.toMatchObject({ code: "GONE" });
  });

  it("an expired link is Gone", async () => {
    const a = await run(`h-${crypto.randomUUID().slice(0, 6)}`);
    const { slug } = await createComparison({ runIds: [a.id], title: "short-lived", expiresInDays: 1 }, null);
    await getComparison(slug);
    await db().comparison.update({ where: { slug }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await expect(getComparison(slug)).rejects.toMatchObject({ code: "GONE", message: expect.stringMatching(/expired/) });
  });

  it("the share page learns why a link is gone: withdrawn or expired, and when; an unknown link is just unknown", async () => {
    const sharer = await user("OPERATOR");
    const a = await run(`h-${crypto.randomUUID().slice(0, 6)}`);
    const withdrawn = await createComparison({ runIds: [a.id], title: "withdrawn" }, sharer.userId);
    expect(await goneShare(withdrawn.slug)).toBeNull();
    await revokeComparison(withdrawn.slug, sharer);
    expect(await goneShare(withdrawn.slug)).toMatchObject({ reason: "withdrawn", at: expect.any(Date) });
    const expired = await createComparison({ runIds: [a.id], title: "expired", expiresInDays: 1 }, null);
    const at = new Date(Date.now() - 60_000);
    await db().comparison.update({ where: { slug: expired.slug }, data: { expiresAt: at } });
    expect(await goneShare(expired.slug)).toEqual({ reason: "expired", at });
    expect(await goneShare("x".repeat(32))).toBeNull();
    expect(await goneShare("not a slug")).toBeNull();
  });
});

describe("share privacy of an experiment on an NFS mount", () => {
  it("the frozen verdict, the title and the NFS source and options carry no directory, server or address", async () => {
    const host = await db().host.create({ data: { name: `nfs-${crypto.randomUUID().slice(0, 6)}` } });
    const dirs = ["/srv/secret-project-alpha/db01", "/srv/secret-project-alpha/db02"];
    const target = (path: string) => ({ path, mountPoint: "/srv/secret-project-alpha", source: "filer01.secret.corp:/vol/project-alpha", fsType: "nfs4", device: null, mountOptions: ["rw", "vers=4.2", "addr=10.1.2.3", "clientaddr=10.1.2.99", "sec=krb5"], medium: "unknown", freeBytes: 1 });
    const ids = [];
    for (const dir of dirs) {
      const r = await db().probeRun.create({
        data: {
          hostId: host.id,
          probe: "dd",
          params: { target: dir, sizeMiB: 64, mode: "write" },
          status: "SUCCEEDED",
          profile: { ...profile({ fsType: "nfs4", device: null }), hostname: "db01.secret.corp", target: target(dir) } as Prisma.InputJsonValue,
          result: { tool: "dd", toolVersion: null, measurements: [{ metric: "throughput", value: 1e8, unit: "B/s", dims: {} }], warnings: [] },
          fsType: "nfs4",
        },
        select: { id: true },
      });
      ids.push(r.id);
    }
    const experiment = {
      status: "FINISHED",
      decisionMessage: null,
      reverted: null,
      policy: { min: 3, max: 3, cvTarget: 2.5 },
      arms: dirs.map((d) => ({ label: d, setup: "", median: 100, cv: 1, runs: 3 })),
      unit: "MiB/s",
      verdict: [{ sentence: `${dirs[1]} wrote 2 % faster than ${dirs[0]} (90 % confidence 1–3 %, 3 runs per arm).`, metric: "throughput", baseline: dirs[0]!, arm: dirs[1]!, ratio: 1.02, ciLow: 1.01, ciHigh: 1.03 }],
      warnings: [],
    };
    const { slug } = await createComparison({ runIds: ids, title: `dd: ${dirs.join(" vs ")}` }, null, { experiment });
    const shared = await getComparison(slug);
    const text = JSON.stringify(comparisonJson(shared));
    for (const leak of ["secret", "filer01", "project-alpha", "10.1.2.3", "10.1.2.99", host.name]) expect(text).not.toContain(leak);
    expect(shared.title).toBe("dd: path 1 vs path 2");
    expect(shared.experiment?.verdict[0]?.sentence).toMatch(/^path 2 wrote 2 % faster than path 1 /);
    expect(text).toContain("sec=krb5");
  });
});
