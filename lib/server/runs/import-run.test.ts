import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "../../db";
import { connectTestDatabase } from "../../testing/db";
import { importRun } from "./import-run";

connectTestDatabase();

const ddOutput = "960+0 records in\n960+0 records out\n1006632960 bytes (1.0 GB, 960 MiB) copied, 2.5 s, 403 MB/s\n";
const operator = () => db().user.create({ data: { email: `imp-${crypto.randomUUID().slice(0, 8)}@example.test`, passwordHash: "x", role: "OPERATOR" } });

describe("importRun (the same store as host history days)", () => {
  it("keeps the output as a SUCCEEDED, host-less IMPORTED run with its log", async () => {
    const user = await operator();
    const { id, format } = await importRun({ input: { probe: "dd", output: ddOutput, hostLabel: "laptop", notes: "before the upgrade" }, createdById: user.id });
    const run = await db().probeRun.findUniqueOrThrow({ where: { id }, include: { chunks: { orderBy: { seq: "asc" } } } });
    expect(run).toMatchObject({ probe: "dd", origin: "IMPORTED", status: "SUCCEEDED", hostId: null, hostLabel: "laptop", notes: "before the upgrade", createdById: user.id, historyDay: null, profile: null });
    expect(run.chunks.map((c) => c.data).join("")).toBe(ddOutput);
    expect(run.result).toMatchObject({ tool: "dd" });
    expect(format).toBe((run.result as { format?: string }).format ?? null);
  });

  it("refuses output its parser cannot read, storing nothing", async () => {
    const user = await operator();
    const err = await importRun({ input: { probe: "fio", output: "hello", hostLabel: "laptop" }, createdById: user.id }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "BAD_REQUEST", fieldErrors: { output: [expect.any(String)] } });
    expect(await db().probeRun.count({ where: { createdById: user.id } })).toBe(0);
  });
});
