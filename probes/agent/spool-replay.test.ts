import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentApi } from "./agent-api";
import { AgentHttpClient } from "./http-client";
import { memoryLogger } from "./logger";
import type { StreamerDeps } from "./log-streamer";
import { RunSpool } from "./spool";
import { INTERRUPTED_ERROR, replaySpools } from "./spool-replay";
import { FakeAgentServer } from "./testing/fake-server";

const root = mkdtempSync(path.join(os.tmpdir(), "probebook-replay-"));
let server: FakeAgentServer;
let api: AgentApi;
beforeAll(async () => {
  server = await new FakeAgentServer().start();
  api = new AgentApi(new AgentHttpClient({ server: server.url, credential: server.credential }));
});
afterAll(async () => {
  await server.close();
  rmSync(root, { recursive: true, force: true });
});

function deps(log = memoryLogger()): StreamerDeps {
  return {
    upload: (id, chunks, signal) => api.uploadChunks(id, chunks, signal),
    finish: (id, body, signal) => api.finish(id, body, signal),
    log,
    rejectedRoot: path.join(root, "rejected"),
    backoff: { baseMs: 5, capMs: 50 },
  };
}

const newSpoolRoot = () => mkdtempSync(path.join(root, "spool-"));
const meta = (runId: string, hostId = "host-a") => ({ runId, hostId, probe: "dd", target: null, startedAt: new Date(Date.now() - 5000).toISOString() });

describe("replaySpools", () => {
  it("finishes a run whose agent was killed with SIGKILL, as interrupted, with every spooled line", async () => {
    const spoolRoot = newSpoolRoot();
    const runId = randomUUID();
    const child = spawn(process.execPath, ["--import", "tsx", path.join(__dirname, "testing/crash-writer.ts"), spoolRoot, runId, "200"], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    await new Promise<void>((resolve, reject) => {
      child.stdout.on("data", (d: Buffer) => d.toString().includes("ready") && resolve());
      child.on("exit", (code) => reject(new Error(`crash-writer exited early (${code})`)));
    });
    child.kill("SIGKILL");
    await new Promise((r) => child.once("exit", r));

    const outcomes = await replaySpools({ spoolRoot, hostId: "host-a", deps: deps() });
    expect(outcomes).toEqual({ [runId]: "delivered" });
    expect(server.output(runId)).toBe(Array.from({ length: 200 }, (_, i) => `line ${i}\n`).join(""));
    const fin = server.finishes.get(runId);
    expect(fin).toMatchObject({ interrupted: true, exitCode: null, error: INTERRUPTED_ERROR, lastSeq: server.seqs(runId).length - 1 });
    expect(fin?.durationMs).toBeGreaterThan(0);
    expect(existsSync(path.join(spoolRoot, runId))).toBe(false);
  }, 30_000);

  it("delivers a finish that was already spooled, after chunks the server partly has", async () => {
    const spoolRoot = newSpoolRoot();
    const runId = randomUUID();
    // An earlier process delivered seq 0 and 1, then stopped before sending the rest.
    await api.uploadChunks(runId, [{ seq: 0, data: "a" }, { seq: 1, data: "b" }]);
    const spool = RunSpool.create(spoolRoot, meta(runId));
    for (const [seq, data] of ["a", "b", "c", "d"].entries()) spool.appendChunk({ seq, data });
    spool.appendFinish({ exitCode: 3, signal: null, durationMs: 42, lastSeq: 3, error: null, cancelled: false, timedOut: false, interrupted: false, profile: null });
    spool.close();

    expect(await replaySpools({ spoolRoot, hostId: "host-a", deps: deps() })).toEqual({ [runId]: "delivered" });
    expect(server.output(runId)).toBe("abcd");
    expect(server.finishes.get(runId)).toMatchObject({ exitCode: 3, durationMs: 42, lastSeq: 3, interrupted: false });
  });

  it("moves aside spools of an earlier registration instead of sending them", async () => {
    const spoolRoot = newSpoolRoot();
    const runId = randomUUID();
    const spool = RunSpool.create(spoolRoot, meta(runId, "old-host"));
    spool.appendChunk({ seq: 0, data: "x" });
    spool.close();
    const log = memoryLogger();
    expect(await replaySpools({ spoolRoot, hostId: "host-a", deps: deps(log) })).toEqual({ [runId]: "rejected" });
    expect(server.chunks.has(runId)).toBe(false);
    expect(existsSync(path.join(root, "rejected", runId))).toBe(true);
    expect(log.lines.join("\n")).toMatch(/earlier registration/);
  });

  it("waits for a server that is down, and can be interrupted by a shutdown", async () => {
    const spoolRoot = newSpoolRoot();
    const runId = randomUUID();
    const spool = RunSpool.create(spoolRoot, meta(runId));
    spool.appendChunk({ seq: 0, data: "patience" });
    spool.close();
    server.down = true;
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 300);
    expect(await replaySpools({ spoolRoot, hostId: "host-a", deps: deps(), signal: ac.signal })).toEqual({ [runId]: "pending" });
    // the interrupted finish was written before anything was sent: a later start sends the same one
    expect(RunSpool.open(spoolRoot, runId).contents.finish).toMatchObject({ interrupted: true, lastSeq: 0 });
    setTimeout(() => (server.down = false), 300);
    expect(await replaySpools({ spoolRoot, hostId: "host-a", deps: deps() })).toEqual({ [runId]: "delivered" });
    expect(server.output(runId)).toBe("patience");
    expect(server.finishes.get(runId)?.interrupted).toBe(true);
  });
});
