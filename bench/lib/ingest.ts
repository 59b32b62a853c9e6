// Log-ingest rate: the same 1 KiB chunks through POST /api/agent/runs/:id/chunks (auth, zod,
// INSERT … unnest … ON CONFLICT, activity update, NOTIFY) and as the bare INSERT that route makes,
// sent straight to the same PostgreSQL with pg; same batches, same concurrency, same runs layout.
import pg from "pg";
import type { Chunk } from "../../probes/protocol/schemas";
import { SAR_PARAMS, type FakeAgent, type UserApi } from "./api";
import { onCleanup } from "./cleanup";
import { busiestOthersMeter, groupCpuMeter, machineCpuMeter, type PidGroups } from "./proc";
import { nowMs } from "./stats";

export interface IngestOptions {
  user: UserApi;
  /** One per stream in flight: an agent runs one job at a time, so concurrency means hosts. */
  agents: FakeAgent[];
  /** Owns the runs the raw INSERTs fill (raw writes need no agent). */
  rawHostId: string;
  databaseUrl: string;
  runs: number;
  chunksPerRun: number;
  chunkBytes: number;
  batch: number;
  cpuGroups: PidGroups;
}

export interface IngestRate {
  chunks: number;
  seconds: number;
  chunksPerSec: number;
  mibPerSec: number;
  machineCpuPct: number;
  /** CPU per process group, % of one core. */
  cpuPctOfCore: Record<string, number>;
  /** The busiest processes that are not Probebook's or the bench's, "comm % of a core". */
  otherProcesses: string[];
}

export interface IngestResult {
  concurrency: number;
  api: IngestRate;
  raw: IngestRate;
  /** api.chunksPerSec ÷ raw.chunksPerSec */
  ratio: number;
  rowsStored: { api: number; raw: number };
}

/** The INSERT of lib/server/agent/ingest-chunks.ts, without the authentication and activity stamps around it. */
const RAW_INSERT = `INSERT INTO run_log_chunks (run_id, seq, data)
  SELECT $1::uuid, s, d FROM unnest($2::int[], $3::text[]) AS t(s, d)
  ON CONFLICT (run_id, seq) DO NOTHING`;

/** Printable text of exactly `bytes` ASCII characters ending in a newline, like tool output. */
function makeChunkData(count: number, bytes: number): string[] {
  const row = "07:42:01 PM   dev253-0  1520.00  0.00  194560.00  0.00  128.00  1.98  1.30  98.40\n";
  return Array.from({ length: count }, (_, i) => `${i.toString().padStart(6, "0")} ${row.repeat(Math.ceil(bytes / row.length))}`.slice(0, bytes - 1) + "\n");
}

type Sender = (runId: string, chunks: Chunk[]) => Promise<void>;

/**
 * One worker per stream; each sends its runs' batches one after another, as an agent does (one
 * request in flight per run and per host).
 */
async function pump(streams: { runs: string[]; send: Sender }[], data: string[], batch: number, cpuGroups: PidGroups): Promise<IngestRate> {
  const cpu = machineCpuMeter();
  const split = groupCpuMeter(cpuGroups);
  const others = busiestOthersMeter(cpuGroups);
  const t0 = nowMs();
  await Promise.all(
    streams.map(async ({ runs, send }) => {
      for (const runId of runs) {
        for (let seq = 0; seq < data.length; seq += batch) {
          await send(runId, data.slice(seq, seq + batch).map((d, i) => ({ seq: seq + i, data: d })));
        }
      }
    }),
  );
  const seconds = (nowMs() - t0) / 1000;
  const runs = streams.reduce((a, s) => a + s.runs.length, 0);
  const chunks = runs * data.length;
  const bytes = data.reduce((a, d) => a + d.length, 0) * runs;
  return { chunks, seconds, chunksPerSec: chunks / seconds, mibPerSec: bytes / 2 ** 20 / seconds, machineCpuPct: cpu(), cpuPctOfCore: split(), otherProcesses: others() };
}

/** Sums two measurements of the same kind (rates re-derived from totals, CPU time-weighted). */
function add(a: IngestRate, b: IngestRate): IngestRate {
  const chunks = a.chunks + b.chunks;
  const seconds = a.seconds + b.seconds;
  const weighted = (x: number, y: number) => (x * a.seconds + y * b.seconds) / seconds;
  const cpuPctOfCore = Object.fromEntries(Object.keys(a.cpuPctOfCore).map((k) => [k, weighted(a.cpuPctOfCore[k]!, b.cpuPctOfCore[k] ?? 0)]));
  const otherProcesses = [...new Set([...a.otherProcesses, ...b.otherProcesses])];
  return { chunks, seconds, chunksPerSec: chunks / seconds, mibPerSec: weighted(a.mibPerSec, b.mibPerSec), machineCpuPct: weighted(a.machineCpuPct, b.machineCpuPct), cpuPctOfCore, otherProcesses };
}

export async function measureIngest(o: IngestOptions): Promise<IngestResult> {
  const n = o.agents.length;
  const perHost = Math.ceil(o.runs / n);
  // Each host's runs, claimed so they are RUNNING like any run an agent streams.
  const apiRuns: string[][] = [];
  for (const agent of o.agents) {
    const ids = await o.user.queueRuns(agent.hostId, "sar", SAR_PARAMS, perHost);
    for (let i = 0; i < ids.length; i++) {
      if (!(await agent.api.claim(0))) throw new Error("ingest: a queued run could not be claimed");
    }
    apiRuns.push(ids);
  }
  const rawIds = await o.user.queueRuns(o.rawHostId, "sar", SAR_PARAMS, perHost * n);
  const rawRuns = Array.from({ length: n }, (_, w) => rawIds.slice(w * perHost, (w + 1) * perHost));
  const data = makeChunkData(o.chunksPerRun, o.chunkBytes);

  const pool = new pg.Pool({ connectionString: o.databaseUrl, max: n });
  const closePool = onCleanup("pg pool", () => pool.end());
  try {
    const viaApi = (agent: FakeAgent): Sender => async (runId, chunks) => {
      const r = await agent.api.uploadChunks(runId, chunks);
      if (r.duplicates !== 0) throw new Error(`ingest: ${r.duplicates} duplicates on ${runId}`);
    };
    const viaPg: Sender = async (runId, chunks) => {
      await pool.query(RAW_INSERT, [runId, chunks.map((c) => c.seq), chunks.map((c) => c.data)]);
    };
    // Warm both paths (JIT, connections) on seqs past the measured ones, so they never collide.
    const warm = data.slice(0, o.batch).map((d, i) => ({ seq: o.chunksPerRun + i, data: d }));
    await Promise.all(o.agents.map((a, w) => viaApi(a)(apiRuns[w]![0]!, warm)));
    await Promise.all(rawRuns.map((runs) => viaPg(runs[0]!, warm)));
    // A-B-B-A, each block a share of every stream's runs: the table and its indexes grow while
    // we measure, and neither path should get all of the emptier table.
    const cut = Math.floor(perHost / 2);
    const block = (which: "api" | "raw", first: boolean) =>
      (which === "api" ? apiRuns : rawRuns).map((runs, w) => ({
        runs: first ? runs.slice(0, cut) : runs.slice(cut),
        send: which === "api" ? viaApi(o.agents[w]!) : viaPg,
      }));
    const raw1 = await pump(block("raw", true), data, o.batch, o.cpuGroups);
    const api1 = await pump(block("api", true), data, o.batch, o.cpuGroups);
    const api2 = await pump(block("api", false), data, o.batch, o.cpuGroups);
    const raw2 = await pump(block("raw", false), data, o.batch, o.cpuGroups);
    const api = add(api1, api2);
    const raw = add(raw1, raw2);
    const count = async (ids: string[]) =>
      Number((await pool.query<{ n: string }>("SELECT count(*) AS n FROM run_log_chunks WHERE run_id = ANY($1::uuid[]) AND seq < $2", [ids, o.chunksPerRun])).rows[0]!.n);
    return { concurrency: n, api, raw, ratio: api.chunksPerSec / raw.chunksPerSec, rowsStored: { api: await count(apiRuns.flat()), raw: await count(rawIds) } };
  } finally {
    await closePool();
  }
}
