import { describe, expect, it } from "vitest";
import { connectTestDatabase } from "./testing/db";
import { db } from "./db";
import { pgPool } from "./pg-pool";

connectTestDatabase();

describe("database", () => {
  it("stores a run with its log chunks and rejects a duplicate (run, seq)", async () => {
    const host = await db().host.create({ data: { name: `db-test-${Date.now()}` } });
    const run = await db().probeRun.create({
      data: { hostId: host.id, probe: "dd", params: { target: "/tmp", sizeMiB: 1 } },
    });
    expect(run.status).toBe("QUEUED");
    expect(run.origin).toBe("AGENT");
    await db().runLogChunk.create({ data: { runId: run.id, seq: 0, data: "hello" } });
    await expect(db().runLogChunk.create({ data: { runId: run.id, seq: 0, data: "again" } })).rejects.toThrow(/Unique constraint/);
    const chunks = await db().runLogChunk.findMany({ where: { runId: run.id } });
    expect(chunks.map((c) => c.data)).toEqual(["hello"]);
  });
});

describe("one pool", () => {
  it("runs Prisma's queries on the same pg pool as the hot paths", async () => {
    const [row] = await db().$queryRaw<Array<{ pid: number }>>`SELECT pg_backend_pid() AS pid`;
    // The connection Prisma just used went back to the shared pool: it is the idle one handed out next.
    const client = await pgPool().connect();
    try {
      expect((client as unknown as { processID: number }).processID).toBe(row!.pid);
      expect(pgPool().totalCount).toBe(1);
    } finally {
      client.release();
    }
  });
});
