import crypto from "node:crypto";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { generateSecret, hashSecret } from "../../auth/secret-token";
import { db } from "../../db";
import { connectTestDatabase } from "../../testing/db";
import { INLINE_MAX_BYTES, readRunNotification, runChannel } from "../../notifications";
import { ingestChunks } from "./ingest-chunks";

connectTestDatabase();

async function agentHost() {
  const credentialHash = hashSecret(generateSecret("pba"));
  const host = await db().host.create({ data: { name: `batch-${crypto.randomUUID().slice(0, 8)}`, agentCredentialHash: credentialHash } });
  return { host, credentialHash };
}

const running = (hostId: string) =>
  db().probeRun.create({ data: { hostId, probe: "dd", params: {}, status: "RUNNING", startedAt: new Date(), lastActivityAt: new Date() } });

const outcome = (p: Promise<unknown>) => p.then((v) => ({ ok: v }), (e: unknown) => ({ err: (e as { code?: string }).code }));

describe("chunk uploads committed together", () => {
  it("gives every upload of a batch its own outcome, and stores only what may be stored", async () => {
    const a = await agentHost();
    const b = await agentHost();
    const [runA, runA2, runB, finished] = await Promise.all([running(a.host.id), running(a.host.id), running(b.host.id), running(a.host.id)]);
    await db().probeRun.update({ where: { id: finished.id }, data: { status: "SUCCEEDED", finishedAt: new Date() } });
    const queued = await db().probeRun.create({ data: { hostId: a.host.id, probe: "dd", params: {} } });
    await ingestChunks({ credentialHash: a.credentialHash, runId: runA2.id, chunks: [{ seq: 0, data: "already\n" }] });

    await ingestChunks({ credentialHash: a.credentialHash, runId: runA.id, chunks: [{ seq: 0, data: "a0\n" }] });

    // Submitted in the same tick: they share statements.
    const results = await Promise.all([
      outcome(ingestChunks({ credentialHash: a.credentialHash, runId: runA.id, chunks: [{ seq: 0, data: "a0\n" }, { seq: 1, data: "a1\n" }, { seq: 2, data: "a2\n" }] })),
      outcome(ingestChunks({ credentialHash: a.credentialHash, runId: runA2.id, chunks: [{ seq: 0, data: "already\n" }] })),
      outcome(ingestChunks({ credentialHash: b.credentialHash, runId: runB.id, chunks: [{ seq: 0, data: "b0\n" }] })),
      outcome(ingestChunks({ credentialHash: b.credentialHash, runId: runA.id, chunks: [{ seq: 9, data: "not yours\n" }] })),
      outcome(ingestChunks({ credentialHash: hashSecret("pba_revoked"), runId: runB.id, chunks: [{ seq: 9, data: "nobody\n" }] })),
      outcome(ingestChunks({ credentialHash: a.credentialHash, runId: finished.id, chunks: [{ seq: 0, data: "late\n" }] })),
      outcome(ingestChunks({ credentialHash: a.credentialHash, runId: queued.id, chunks: [{ seq: 0, data: "early\n" }] })),
      outcome(ingestChunks({ credentialHash: a.credentialHash, runId: crypto.randomUUID(), chunks: [{ seq: 0, data: "nowhere\n" }] })),
    ]);
    expect(results).toEqual([
      { ok: { stored: 2, duplicates: 1, cancelRequested: false } },
      { ok: { stored: 0, duplicates: 1, cancelRequested: false } },
      { ok: { stored: 1, duplicates: 0, cancelRequested: false } },
      { err: "FORBIDDEN" },
      { err: "UNAUTHORIZED" },
      { err: "CONFLICT" },
      { err: "CONFLICT" },
      { err: "NOT_FOUND" },
    ]);
    const log = async (runId: string) => (await db().runLogChunk.findMany({ where: { runId }, orderBy: { seq: "asc" } })).map((c) => `${c.seq}:${c.data}`);
    expect(await log(runA.id)).toEqual(["0:a0\n", "1:a1\n", "2:a2\n"]);
    expect(await log(runB.id)).toEqual(["0:b0\n"]);
    expect(await log(finished.id)).toEqual([]);
    expect(await log(queued.id)).toEqual([]);
  });

  it("tells the agent about a cancel request in its upload's answer", async () => {
    const a = await agentHost();
    const run = await running(a.host.id);
    await db().probeRun.update({ where: { id: run.id }, data: { cancelRequestedAt: new Date() } });
    expect(await ingestChunks({ credentialHash: a.credentialHash, runId: run.id, chunks: [{ seq: 0, data: "x\n" }] })).toEqual({ stored: 1, duplicates: 0, cancelRequested: true });
  });
});

describe("what an upload tells the run's watchers", () => {
  it("carries a small upload's newly stored lines in the notification, and only the last seq of a large one", async () => {
    const { host, credentialHash } = await agentHost();
    const run = await running(host.id);
    const listener = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await listener.connect();
    const heard: string[] = [];
    listener.on("notification", (n) => heard.push(n.payload ?? ""));
    await listener.query(`LISTEN ${runChannel(run.id)}`);
    try {
      await ingestChunks({ credentialHash, runId: run.id, chunks: [{ seq: 0, data: "zero\n" }, { seq: 1, data: 'a "quoted" line\n' }] });
      // seq 1 again: only seq 2 is new, and only it rides along.
      await ingestChunks({ credentialHash, runId: run.id, chunks: [{ seq: 1, data: 'a "quoted" line\n' }, { seq: 2, data: "two\n" }] });
      await ingestChunks({ credentialHash, runId: run.id, chunks: [{ seq: 3, data: "x".repeat(INLINE_MAX_BYTES + 1) }] });
      await expect.poll(() => heard.length).toBeGreaterThanOrEqual(3);
      const said = heard.map(readRunNotification).filter((n) => n?.kind !== "status");
      expect(said).toEqual([
        { kind: "chunks", items: [[0, "zero\n"], [1, 'a "quoted" line\n']] },
        { kind: "chunks", items: [[2, "two\n"]] },
        { kind: "chunk", seq: 3 },
      ]);
    } finally {
      await listener.end();
    }
  });
});
