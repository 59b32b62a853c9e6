import crypto from "node:crypto";
import type { Prisma } from "@prisma/client";
import { describe, expect, it } from "vitest";
import { measurementsCsv } from "../../compare/csv";
import { buildComparison } from "../../compare/model";
import { profile } from "../../compare/testing";
import { db } from "../../db";
import { connectTestDatabase } from "../../testing/db";
import { createComparisonSchema } from "../../api/schemas/comparisons";
import { createComparison, SLUG_RE } from "./create-comparison";
import { comparisonJson, getComparison } from "./get-comparison";
import { loadCompareRuns } from "./load-runs";

connectTestDatabase();

async function ddRun(fsType: string, mbps: number, over: Partial<Prisma.ProbeRunUncheckedCreateInput> = {}) {
  const host = await db().host.create({ data: { name: `cmp-${crypto.randomUUID().slice(0, 8)}` } });
  const p = { ...profile({ fsType, device: "loop3" }), targets: [{ path: "/private/allowed" }] };
  return db().probeRun.create({
    data: {
      hostId: host.id,
      probe: "dd",
      params: { target: `/mnt/${fsType}`, sizeMiB: 64, mode: "write", blockSizeKiB: 1024, direct: true, fdatasync: true },
      status: "SUCCEEDED",
      profile: p as Prisma.InputJsonValue,
      result: { tool: "dd", toolVersion: null, measurements: [{ metric: "throughput", value: mbps * 1e6, unit: "B/s", dims: {} }], warnings: [] },
      fsType,
      medium: "disk",
      createdAt: new Date("2026-11-21T10:00:00Z"),
      ...over,
    },
    select: { id: true, hostId: true },
  });
}

describe("shared comparisons", () => {
  it("freezes labels, profiles and results; survives deleting a run", async () => {
    const a = await ddRun("ext3", 120);
    const b = await ddRun("xfs", 180);
    const { slug } = await createComparison({ runIds: [a.id, b.id], title: "ext3 vs xfs" }, null);
    expect(slug).toMatch(SLUG_RE);
    expect(Buffer.from(slug, "base64url")).toHaveLength(24);
    const links = await db().comparisonRun.findMany({ where: { comparison: { slug } }, orderBy: { position: "asc" } });
    expect(links.map((l) => l.runId)).toEqual([a.id, b.id]);

    const before = await getComparison(slug);
    expect(before.title).toBe("ext3 vs xfs");
    expect(before.runs.map((r) => r.label)).toEqual([expect.stringContaining("ext3 · 2026-11-21"), expect.stringContaining("xfs · 2026-11-21")]);
    // The public snapshot does not carry the host's other allowed directories.
    expect(JSON.stringify(before.runs)).not.toContain("/private/allowed");

    await db().probeRun.delete({ where: { id: a.id } });
    await db().host.delete({ where: { id: a.hostId! } });
    const after = await getComparison(slug);
    expect(after).toEqual(before);
    expect(await db().comparisonRun.count({ where: { comparison: { slug } } })).toBe(1);

    const json = comparisonJson(after);
    expect(json.runs[0]).toMatchObject({ probe: "dd", fsType: "ext3", result: { measurements: [{ metric: "throughput", value: 120e6 }] } });
    // CSV in display units: 120 MB/s = 120e6 B/s ÷ 2²⁰ MiB/s.
    expect(measurementsCsv(after.runs).split("\r\n")[1]).toMatch(new RegExp(`ext3 · 2026-11-21,throughput,,${120e6 / 2 ** 20},MiB/s$`));
    const model = buildComparison(after.runs, { fold: true });
    expect(model.differs.fields.find((f) => f.id === "fsType")?.values).toEqual({ s0: "ext3", s1: "xfs" });
  });

  it("refuses unknown and unfinished runs with clear errors", async () => {
    const missing = crypto.randomUUID();
    const ok = await ddRun("ext4", 100);
    await expect(createComparison({ runIds: [ok.id, missing], title: "x" }, null)).rejects.toMatchObject({ code: "NOT_FOUND", message: `No run with id ${missing}.` });
    const queued = await ddRun("ext4", 1, { status: "QUEUED", result: undefined });
    await expect(createComparison({ runIds: [queued.id], title: "x" }, null)).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringMatching(/queued/) });
  });

  it("validates the body", () => {
    const id = crypto.randomUUID();
    expect(createComparisonSchema.safeParse({ runIds: [], title: "t" }).success).toBe(false);
    expect(createComparisonSchema.safeParse({ runIds: Array.from({ length: 31 }, () => id), title: "t" }).success).toBe(false);
    expect(createComparisonSchema.safeParse({ runIds: ["nope"], title: "t" }).success).toBe(false);
    expect(createComparisonSchema.safeParse({ runIds: [id], title: "   " }).success).toBe(false);
    expect(createComparisonSchema.safeParse({ runIds: [id], title: "x".repeat(201) }).success).toBe(false);
    expect(createComparisonSchema.safeParse({ runIds: [id], title: " ok " }).data?.title).toBe("ok");
  });

  it("unknown and malformed slugs are NOT_FOUND", async () => {
    await expect(getComparison("A".repeat(32))).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(getComparison("../etc")).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("loads runs in the order asked and names the missing ones", async () => {
    const a = await ddRun("ext4", 100);
    const b = await ddRun("ext4", 110);
    const gone = crypto.randomUUID();
    const { runs, missing } = await loadCompareRuns([b.id, gone, a.id]);
    expect(runs.map((r) => r.id)).toEqual([b.id, a.id]);
    expect(missing).toEqual([gone]);
    // Same host name pattern differs, but both say ext4 on the same day: labels still distinct.
    expect(new Set(runs.map((r) => r.label)).size).toBe(2);
  });
});
