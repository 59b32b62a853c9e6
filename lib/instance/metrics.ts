// The process's Prometheus metrics (prom-client), served at /metrics (app/metrics/route.ts).
// ONE registry per process, on globalThis: Next bundles the routes and instrumentation.ts
// separately, so a module-level registry could exist twice, and a counter the chunk batcher
// moves would not be the one /metrics reports.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";

function create() {
  const registry = new Registry();
  // The process's own: CPU, resident memory, heap, event-loop lag, open file descriptors, GC.
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  return {
    registry,
    // Read at scrape time (lib/server/metrics/read-metrics.ts): the same figures on every instance.
    runs: new Gauge({ name: "probebook_runs", help: "Runs queued and running now (status QUEUED or RUNNING), in the database (the same on every instance).", labelNames: ["status"] as const, registers }),
    queueOldestAge: new Gauge({ name: "probebook_queue_oldest_age_seconds", help: "Age of the oldest QUEUED run (0 when none), in the database.", registers }),
    hostsOnline: new Gauge({ name: "probebook_hosts_online", help: "Hosts whose agent was seen in the last 90 s (the dashboard's online window), in the database.", registers }),
    // This instance's, read from its machinery at scrape time.
    agentSockets: new Gauge({ name: "probebook_agent_sockets", help: "Agent WebSockets open on this instance.", registers }),
    claimsWaiting: new Gauge({ name: "probebook_claims_waiting", help: "Agent claim long-polls waiting for a job on this instance.", registers }),
    liveViewers: new Gauge({ name: "probebook_live_viewers", help: "Open live run streams (SSE) on this instance.", registers }),
    // Moved by this instance's work.
    chunks: new Counter({ name: "probebook_chunks_ingested_total", help: "Output chunks stored (duplicates of a resent upload not counted).", registers }),
    chunkBytes: new Counter({ name: "probebook_chunk_bytes_ingested_total", help: "Bytes of output stored in chunks.", registers }),
    chunkBatchSeconds: new Histogram({
      name: "probebook_chunk_batch_seconds",
      help: "Time of one chunk batch statement and its commit (the uploads of the moment together).",
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers,
    }),
    telemetrySamples: new Counter({ name: "probebook_telemetry_samples_ingested_total", help: "Telemetry samples stored (duplicates not counted).", registers }),
    claimWaitSeconds: new Histogram({
      name: "probebook_claim_wait_seconds",
      help: "How long an agent's claim long-poll waited, by how it ended (job, requests, empty, error).",
      labelNames: ["outcome"] as const,
      buckets: [0.01, 0.1, 0.5, 1, 5, 15, 30, 50, 120, 300, 900],
      registers,
    }),
    parseSeconds: new Histogram({
      name: "probebook_parse_seconds",
      help: "Time a parse worker took over one tool output, by tool and outcome (parsed, failed, too-large, gave-up).",
      labelNames: ["tool", "outcome"] as const,
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    }),
    runsExpired: new Counter({ name: "probebook_runs_expired_total", help: "Queued runs this instance ended as not started because their host stayed offline.", registers }),
  };
}

export type Metrics = ReturnType<typeof create>;

const SLOT = Symbol.for("probebook.metrics");
const g = globalThis as unknown as Record<typeof SLOT, Metrics | undefined>;

/** This process's metrics, made on first use. */
export function metrics(): Metrics {
  g[SLOT] ??= create();
  return g[SLOT];
}
