import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import type { Actor } from "../../auth/actor";
import { hashSecret } from "../../auth/secret-token";
import { db } from "../../db";
import { connectTestDatabase } from "../../testing/db";
import { ingestChunks } from "../agent/ingest-chunks";
import { recordAudit } from "../audit/record-audit";
import { createComparison } from "../comparisons/create-comparison";
import { deleteComparison } from "../comparisons/delete-comparison";
import { getComparison } from "../comparisons/get-comparison";
import { deleteHost, HOST_REMOVED_MESSAGE } from "../hosts/delete-host";
import { deleteRun } from "./delete-run";
import { runJsonSchema, listRunsQuerySchema } from "../../api/schemas/runs";
import { updateRunSchema } from "../../api/schemas/tags";
import { getRun } from "./get-run";
import { listRuns } from "./list-runs";
import { updateRun } from "./update-run";

connectTestDatabase();

async function actor(role: Actor["role"]): Promise<Actor> {
  const u = await db().user.create({ data: { email: `d-${crypto.randomUUID().slice(0, 8)}@example.com`, passwordHash: "x", role } });
  return { userId: u.id, email: u.email, role, via: "token" };
}

async function hostOf(owner: Actor) {
  const credential = `pba_${crypto.randomUUID()}`;
  const host = await db().host.create({ data: { name: `h-${crypto.randomUUID().slice(0, 6)}`, createdById: owner.userId, agentCredentialHash: hashSecret(credential) } });
  return { host, credential };
}

async function runOn(hostId: string | null, by: Actor | null, status: "SUCCEEDED" | "RUNNING" | "QUEUED" = "SUCCEEDED") {
  return db().probeRun.create({
    data: { hostId, probe: "dd", params: { target: "/srv/pb", sizeMiB: 8, mode: "write" }, status, createdById: by?.userId ?? null, startedAt: status === "QUEUED" ? null : new Date(), result: { tool: "dd", toolVersion: null, measurements: [{ metric: "throughput", value: 1e8, unit: "B/s", dims: {} }], warnings: [] } },
  });
}

describe("tags and notes", () => {
  it("are validated, normalised, stored and filterable", async () => {
    const op = await actor("OPERATOR");
    const { host } = await hostOf(op);
    const a = await runOn(host.id, op);
    const b = await runOn(host.id, op);
    const input = updateRunSchema.parse({ tags: [" Baseline ", "nvme", "baseline"], notes: "  after the firmware update  " });
    expect(await updateRun({ id: a.id, actor: op, input })).toEqual({ id: a.id, tags: ["baseline", "nvme"], notes: "after the firmware update" });
    expect(updateRunSchema.safeParse({ tags: ["has space"] }).success).toBe(false);
    expect(updateRunSchema.safeParse({ tags: ["x".repeat(33)] }).success).toBe(false);
    expect(updateRunSchema.safeParse({ tags: Array.from({ length: 13 }, (_, i) => `t${i}`) }).success).toBe(false);
    expect(updateRunSchema.safeParse({}).success).toBe(false);
    expect(updateRunSchema.safeParse({ tags: [], other: 1 }).success).toBe(false);
    const tagged = await listRuns(listRunsQuerySchema.parse({ tag: "BASELINE", hostId: host.id }));
    expect(tagged.runs.map((r) => r.id)).toEqual([a.id]);
    expect(tagged.runs[0]!.tags).toEqual(["baseline", "nvme"]);
    expect((await listRuns(listRunsQuerySchema.parse({ hostId: host.id }))).total).toBe(2);
    expect(listRunsQuerySchema.safeParse({ tag: "a b" }).success).toBe(false);
    // An empty note clears it.
    expect((await updateRun({ id: a.id, actor: op, input: updateRunSchema.parse({ notes: "" }) })).notes).toBeNull();
    // Another operator may not, an admin may.
    const other = await actor("OPERATOR");
    await expect(updateRun({ id: b.id, actor: other, input: updateRunSchema.parse({ tags: ["x"] }) })).rejects.toMatchObject({ code: "FORBIDDEN" });
    const admin = await actor("ADMIN");
    expect((await updateRun({ id: b.id, actor: admin, input: updateRunSchema.parse({ tags: ["x"] }) })).tags).toEqual(["x"]);
  });
});

describe("deleting", () => {
  it("a run: its launcher or an admin, never while it runs; its log goes with it", async () => {
    const op = await actor("OPERATOR");
    const { host } = await hostOf(op);
    const done = await runOn(host.id, op);
    await db().runLogChunk.create({ data: { runId: done.id, seq: 0, data: "x" } });
    const running = await runOn(host.id, op, "RUNNING");
    const viewer = await actor("VIEWER");
    await expect(deleteRun({ id: done.id, actor: viewer })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(deleteRun({ id: done.id, actor: await actor("OPERATOR") })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(deleteRun({ id: running.id, actor: op })).rejects.toMatchObject({ code: "CONFLICT" });
    await deleteRun({ id: done.id, actor: op });
    expect(await db().probeRun.findUnique({ where: { id: done.id } })).toBeNull();
    expect(await db().runLogChunk.count({ where: { runId: done.id } })).toBe(0);
    // Reference data (nobody's) is the admins'.
    const reference = await runOn(null, null);
    await expect(deleteRun({ id: reference.id, actor: op })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await deleteRun({ id: reference.id, actor: await actor("ADMIN") });
    await expect(deleteRun({ id: reference.id, actor: op })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("a host keeps its runs readable, marked as from a removed host, and its agent credential stops working", async () => {
    const op = await actor("OPERATOR");
    const { host, credential } = await hostOf(op);
    const finished = await runOn(host.id, op);
    const running = await runOn(host.id, op, "RUNNING");
    const queued = await runOn(host.id, op, "QUEUED");
    expect((await ingestChunks({ credentialHash: hashSecret(credential), runId: running.id, chunks: [{ seq: 0, data: "before" }] })).stored).toBe(1);
    await expect(deleteHost({ id: host.id, actor: await actor("OPERATOR") })).rejects.toMatchObject({ code: "FORBIDDEN" });
    const r = await deleteHost({ id: host.id, actor: op });
    expect(r).toMatchObject({ runsKept: 3, runsCancelled: 2 });
    const kept = await getRun({ id: finished.id });
    // What the API answers matches the schema the OpenAPI document publishes for it.
    expect(runJsonSchema.strict().safeParse(kept).error?.issues ?? []).toEqual([]);
    expect(kept).toMatchObject({ hostId: null, hostName: host.name, hostRemoved: true, status: "SUCCEEDED" });
    expect(kept.result).toBeTruthy();
    for (const id of [running.id, queued.id]) expect(await getRun({ id })).toMatchObject({ status: "CANCELLED", error: HOST_REMOVED_MESSAGE, hostRemoved: true });
    // The agent's next upload is refused as an unknown credential (401), which stops the agent.
    await expect(ingestChunks({ credentialHash: hashSecret(credential), runId: running.id, chunks: [{ seq: 1, data: "after" }] })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    // Filters by host name still find them.
    expect((await listRuns(listRunsQuerySchema.parse({ host: host.name }))).total).toBe(3);
  });

  it("an admin deletes anyone's host", async () => {
    const op = await actor("OPERATOR");
    const { host } = await hostOf(op);
    await deleteHost({ id: host.id, actor: await actor("ADMIN") });
    expect(await db().host.findUnique({ where: { id: host.id } })).toBeNull();
  });

  it("a comparison: its sharer or an admin; afterwards its link is unknown and its runs remain", async () => {
    const op = await actor("OPERATOR");
    const { host } = await hostOf(op);
    const a = await runOn(host.id, op);
    const { slug } = await createComparison({ runIds: [a.id], title: "to delete" }, op.userId);
    await expect(deleteComparison({ slug, actor: await actor("OPERATOR") })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await deleteComparison({ slug, actor: op });
    await expect(getComparison(slug)).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await db().probeRun.findUnique({ where: { id: a.id } })).not.toBeNull();
    const second = await createComparison({ runIds: [a.id], title: "admin deletes" }, op.userId);
    await deleteComparison({ slug: second.slug, actor: await actor("ADMIN") });
    await expect(getComparison(second.slug)).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("the audit log accepts the new actions", async () => {
    const admin = await actor("ADMIN");
    for (const action of ["run.delete", "run.annotate", "host.delete", "share.delete"] as const) {
      await recordAudit({ actor: admin, action, target: { type: "x", id: action } });
    }
    expect(await db().auditEvent.count({ where: { actorId: admin.userId } })).toBe(4);
  });
});
