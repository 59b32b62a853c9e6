// bench/fleet.ts's load phase: runs queued at a steady rate on idle agents of the fleet, each
// watched by one browser (an SSE client), measuring pickup (POST /api/runs sent → the agent's
// claim answered) and live output (line uploaded → line in the browser's stream).
import { monitorEventLoopDelay } from "node:perf_hooks";
import { SAR_PARAMS, type UserApi } from "./api";
import type { FleetAgent } from "./fleet-agent";
import { openRunEvents, type SseClient } from "./sse";
import { nowMs, round } from "./stats";

const LINE = /^fleet (\S+) (\d+) (\d+\.\d+)/;
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface LoadOptions {
  fleet: FleetAgent[];
  user: UserApi;
  seconds: number;
  ratePerSec: number;
  lines: number;
  /** Where the browser watching a run of this agent connects (and queues the run). */
  browserBase(agent: FleetAgent): string;
  /** No run is queued past this (Date.now() clock). */
  deadline: number;
  say(m: string): void;
}

export interface LoadResult {
  queued: number;
  queueErrors: number;
  pickups: number[];
  /** How long POST /api/runs took: the part of a pickup spent before the run was queued. */
  queueMs: number[];
  live: number[];
  linesLost: number;
  /** The bench's own event-loop delay: on a busy machine part of a latency is the bench's. */
  benchLoopDelayMs: { p99: number; max: number };
}

export async function runLoad(o: LoadOptions): Promise<LoadResult> {
  const pickups: number[] = [];
  const queueMs: number[] = [];
  const live: number[] = [];
  const seen = new Set<string>();
  const clients: SseClient[] = [];
  const pending: Promise<void>[] = [];
  let queued = 0;
  let queueErrors = 0;
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const loadStart = nowMs();
  for (let k = 0; k < o.seconds * o.ratePerSec && Date.now() < o.deadline; k++) {
    const due = loadStart + (k * 1000) / o.ratePerSec;
    const wait = due - nowMs();
    if (wait > 0) await pause(wait);
    const idle = o.fleet.filter((a) => !a.busy);
    const agent = idle[Math.floor(Math.random() * idle.length)];
    if (!agent) continue;
    agent.busy = true;
    const base = o.browserBase(agent);
    pending.push(
      (async () => {
        const queuedAt = nowMs();
        let setRunId: (id: string) => void = () => undefined;
        let failRunId: (err: unknown) => void = () => undefined;
        const runIdP = new Promise<string>((resolve, reject) => ((setRunId = resolve), (failRunId = reject)));
        runIdP.catch(() => undefined);
        let setWatched: () => void = () => undefined;
        const watched = new Promise<void>((resolve) => (setWatched = resolve));
        const done = new Promise<void>((resolve) => {
          agent.expect({ runId: runIdP, queuedAt, watched, lines: o.lines, onPickup: (ms) => pickups.push(ms), onDone: resolve });
          setTimeout(resolve, (o.lines + 60) * 1000).unref();
        });
        let runId: string;
        try {
          // Bounded: a starved server must not hold the phase open for ever.
          const res = await fetch(`${base}/api/runs`, {
            method: "POST",
            headers: { authorization: `Bearer ${o.user.token}`, "content-type": "application/json" },
            body: JSON.stringify({ hostId: agent.hostId, probe: "sar", params: SAR_PARAMS, repeats: 1 }),
            signal: AbortSignal.timeout(30_000),
          });
          const text = await res.text();
          queueMs.push(nowMs() - queuedAt);
          if (!res.ok) throw new Error(`POST /api/runs: HTTP ${res.status} ${text.slice(0, 200)}`);
          [runId] = (JSON.parse(text) as { ids: [string] }).ids;
        } catch (err) {
          failRunId(err);
          agent.cancelExpectation();
          if (queueErrors++ < 3) o.say(`queueing failed: ${err instanceof Error ? `${err.message}${err.cause ? ` (${String(err.cause)})` : ""}` : String(err)}`);
          return;
        }
        setRunId(runId);
        queued++;
        const client = openRunEvents(base, o.user.token, runId, (ev, at) => {
          if (ev.event !== "chunk") return;
          for (const line of ev.chunk.data.split("\n")) {
            const m = LINE.exec(line);
            if (!m || seen.has(`${m[1]}:${m[2]}`)) continue;
            seen.add(`${m[1]}:${m[2]}`);
            live.push(at - Number(m[3]));
          }
        });
        clients.push(client);
        client.done.catch(() => undefined);
        client.ready.then(setWatched, setWatched);
        await done;
        await Promise.race([client.done.catch(() => undefined), pause(10_000)]);
        client.close();
      })(),
    );
  }
  await Promise.all(pending);
  loop.disable();
  return {
    queued,
    queueErrors,
    pickups,
    queueMs,
    live,
    linesLost: queued * o.lines - seen.size,
    benchLoopDelayMs: { p99: round(loop.percentile(99) / 1e6), max: round(loop.max / 1e6) },
  };
}
