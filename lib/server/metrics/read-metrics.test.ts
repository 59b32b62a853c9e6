import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Chunk } from "../../../probes/protocol/schemas";
import { generateSecret, hashSecret } from "../../auth/secret-token";
import { db } from "../../db";
import { instance, stopInstance } from "../../instance/instance";
import { connectTestDatabase } from "../../testing/db";
import { metricValue, parseMetrics } from "../../testing/prometheus";
import { claimJob } from "../agent/claim-job";
import { ingestChunks } from "../agent/ingest-chunks";
import { runEventStream } from "../runs/run-event-stream";
import { readMetrics } from "./read-metrics";

connectTestDatabase();
afterAll(() => stopInstance());

const scrape = async () => parseMetrics((await readMetrics()).text);

async function agentHost() {
  const credentialHash = hashSecret(generateSecret("pba"));
  const host = await db().host.create({ data: { name: `metrics-${crypto.randomUUID().slice(0, 8)}`, agentCredentialHash: credentialHash, lastSeenAt: new Date() } });
  return { host, credentialHash };
}

const sample = (t: number) => ({
  t,
  cpu: { usr: 1, sys: 1, iowait: 0, idle: 98, steal: 0 },
  device: null,
  memory: { free: 1, available: 1, cached: 1, dirty: 0, writeback: 0 },
  paging: { pgpgin: 0, pgpgout: 0, majflt: 0, pgscank: 0, pgscand: 0, pgsteal: 0 },
  writeback: { dirtiedKBs: 0, writtenKBs: 0, limitKb: 1, backgroundLimitKb: 1 },
});

describe("/metrics", () => {
  it("is Prometheus text with every family declared, and the process's own figures", async () => {
    const { text, contentType } = await readMetrics();
    expect(contentType).toMatch(/^text\/plain; version=0\.0\.4/);
    const { families } = parseMetrics(text);
    const ours: [string, string][] = [
      ["probebook_runs", "GAUGE"],
      ["probebook_queue_oldest_age_seconds", "GAUGE"],
      ["probebook_hosts_online", "GAUGE"],
      ["probebook_agent_sockets", "GAUGE"],
      ["probebook_claims_waiting", "GAUGE"],
      ["probebook_live_viewers", "GAUGE"],
      ["probebook_chunks_ingested_total", "COUNTER"],
      ["probebook_chunk_bytes_ingested_total", "COUNTER"],
      ["probebook_chunk_batch_seconds", "HISTOGRAM"],
      ["probebook_telemetry_samples_ingested_total", "COUNTER"],
      ["probebook_claim_wait_seconds", "HISTOGRAM"],
      ["probebook_parse_seconds", "HISTOGRAM"],
      ["probebook_runs_expired_total", "COUNTER"],
    ];
    for (const [name, type] of ours) expect(families.get(name)?.type, name).toBe(type);
    for (const name of ["process_cpu_seconds_total", "process_resident_memory_bytes", "nodejs_eventloop_lag_seconds"]) expect(families.has(name), name).toBe(true);
    // Both live statuses are series, zeros included.
    expect(families.get("probebook_runs")!.metrics.map((m) => m.labels?.status).sort()).toEqual(["QUEUED", "RUNNING"]);
  });

  it("moves as a run streams: chunks, bytes, telemetry, the batch's time, runs by status and queue age", async () => {
    const { host, credentialHash } = await agentHost();
    const before = await scrape();
    const queued = await db().probeRun.create({ data: { hostId: host.id, probe: "dd", params: {}, createdAt: new Date(Date.now() - 120_000) } });
    const run = await db().probeRun.create({ data: { hostId: host.id, probe: "dd", params: {}, status: "RUNNING", startedAt: new Date(), lastActivityAt: new Date() } });
    const chunks: Chunk[] = [
      { seq: 0, data: "16+0 records in\n", telemetry: [sample(0), sample(1)] },
      { seq: 1, data: "16+0 records out — é\n", telemetry: [sample(2)] },
    ];
    const bytes = chunks.reduce((n, c) => n + Buffer.byteLength(c.data), 0);
    expect(await ingestChunks({ credentialHash, runId: run.id, chunks })).toMatchObject({ stored: 2 });
    // A resent upload stores nothing and counts nothing.
    expect(await ingestChunks({ credentialHash, runId: run.id, chunks })).toMatchObject({ stored: 0, duplicates: 2 });
    const after = await scrape();
    expect(metricValue(after, "probebook_chunks_ingested_total") - metricValue(before, "probebook_chunks_ingested_total")).toBe(2);
    expect(metricValue(after, "probebook_chunk_bytes_ingested_total") - metricValue(before, "probebook_chunk_bytes_ingested_total")).toBe(bytes);
    expect(metricValue(after, "probebook_telemetry_samples_ingested_total") - metricValue(before, "probebook_telemetry_samples_ingested_total")).toBe(3);
    expect(metricValue(after, "probebook_chunk_batch_seconds") - metricValue(before, "probebook_chunk_batch_seconds")).toBe(2);
    // The gauges read from the database agree with it.
    const inDb = async (status: "QUEUED" | "RUNNING") => db().probeRun.count({ where: { status } });
    expect(metricValue(after, "probebook_runs", { status: "QUEUED" })).toBe(await inDb("QUEUED"));
    expect(metricValue(after, "probebook_runs", { status: "RUNNING" })).toBe(await inDb("RUNNING"));
    expect(metricValue(after, "probebook_queue_oldest_age_seconds")).toBeGreaterThanOrEqual(119);
    expect(metricValue(after, "probebook_hosts_online")).toBeGreaterThanOrEqual(1);
    await db().probeRun.update({ where: { id: queued.id }, data: { status: "CANCELLED", finishedAt: new Date() } });
  });

  it("counts claim waits by outcome and the claims waiting now", async () => {
    const { host, credentialHash } = await agentHost();
    const before = await scrape();
    expect(await claimJob({ credentialHash, waitSec: 0.3 })).toBeNull();
    const waiting = claimJob({ credentialHash, waitSec: 20 });
    await expect.poll(() => instance().jobWaiters.waiting).toBe(1);
    const during = await scrape();
    expect(metricValue(during, "probebook_claims_waiting")).toBe(1);
    const run = await db().probeRun.create({ data: { hostId: host.id, probe: "dd", params: {} } });
    await db().$executeRaw`SELECT pg_notify('pb_host_jobs', ${host.id})`;
    expect(await waiting).toMatchObject({ job: { id: run.id } });
    const after = await scrape();
    expect(metricValue(after, "probebook_claims_waiting")).toBe(0);
    expect(metricValue(after, "probebook_claim_wait_seconds", { outcome: "empty" }) - metricValue(before, "probebook_claim_wait_seconds", { outcome: "empty" })).toBe(1);
    expect(metricValue(after, "probebook_claim_wait_seconds", { outcome: "job" }) - metricValue(before, "probebook_claim_wait_seconds", { outcome: "job" })).toBe(1);
  });

  it("counts open live views, and parse time per tool", async () => {
    const { host } = await agentHost();
    const run = await db().probeRun.create({ data: { hostId: host.id, probe: "dd", params: {}, status: "RUNNING", startedAt: new Date(), lastActivityAt: new Date() } });
    const gone = new AbortController();
    const stream = runEventStream(run.id, -1, gone.signal);
    const reader = stream.getReader();
    await reader.read();
    await expect.poll(async () => metricValue(await scrape(), "probebook_live_viewers")).toBe(1);
    await reader.cancel();
    expect(metricValue(await scrape(), "probebook_live_viewers")).toBe(0);

    const before = await scrape();
    const output = fs.readFileSync(path.join(__dirname, "../../../probes/dd/fixtures/dd-read-direct.stderr.txt"), "utf8");
    expect(await instance().parser.parse({ probe: "dd", output })).toMatchObject({ kind: "parsed" });
    const after = await scrape();
    expect(metricValue(after, "probebook_parse_seconds", { tool: "dd", outcome: "parsed" }) - metricValue(before, "probebook_parse_seconds", { tool: "dd", outcome: "parsed" })).toBe(1);
  });
});
