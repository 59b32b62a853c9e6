// Idle agents in child processes, for fleets larger than one process's open-files limit allows
// (each agent holds a socket in the process that runs it): bench/fleet.ts keeps the agents it
// queues runs on in its own process and puts the rest here, where they poll (or hold their
// socket, and reconnect) exactly as the others do but are never given a run. Each child reports
// how many of its agents are connected and what went wrong, when asked.
import { fork, type ChildProcess } from "node:child_process";
import path from "node:path";
import type { Transport } from "./agent-socket-client";
import { onCleanup } from "./cleanup";
import type { FleetCounters } from "./fleet-agent";

export interface BallastAgent {
  hostId: string;
  credential: string;
  base: string;
}

/** parent → child */
export type BallastCommand =
  | { kind: "start"; agents: BallastAgent[]; transport: Transport; idleHeartbeatMs: number | null; spreadMs: number }
  | { kind: "status"; id: number };

/** child → parent */
export interface BallastStatus {
  id: number;
  connected: number;
  total: number;
  counters: FleetCounters;
}

const CHILD = path.join(__dirname, "fleet-ballast-child.ts");

export class Ballast {
  private nextId = 1;
  private readonly waiting = new Map<number, (s: BallastStatus) => void>();

  private constructor(
    private readonly children: ChildProcess[],
    readonly stop: () => Promise<void>,
  ) {
    for (const c of children) c.on("message", (m: BallastStatus) => this.waiting.get(m.id)?.(m));
  }

  /** One child per `perProcess` agents (none for an empty list). */
  static start(agents: BallastAgent[], perProcess: number, opts: { transport: Transport; idleHeartbeatMs: number | null; spreadMs: number }): Ballast {
    const children: ChildProcess[] = [];
    for (let i = 0; i < agents.length; i += perProcess) {
      const child = fork(CHILD, [], { cwd: path.resolve(__dirname, "..", ".."), execArgv: ["--import", "tsx"], stdio: ["ignore", "inherit", "inherit", "ipc"] });
      child.send({ kind: "start", agents: agents.slice(i, i + perProcess), ...opts } satisfies BallastCommand);
      children.push(child);
    }
    const stop = onCleanup("idle agents in child processes", async () => {
      await Promise.all(
        children.map(
          (c) =>
            new Promise<void>((resolve) => {
              if (c.exitCode !== null || c.signalCode !== null) return resolve();
              c.once("exit", () => resolve());
              c.kill("SIGTERM");
            }),
        ),
      );
    });
    return new Ballast(children, stop);
  }

  get pids(): number[] {
    return this.children.map((c) => c.pid!).filter(Boolean);
  }

  /** Every child's agents: how many are connected, and their counters summed. */
  async status(): Promise<{ connected: number; total: number; reconnects: number; refused: number; errors: Record<string, number> }> {
    const all = await Promise.all(
      this.children.map(
        (c) =>
          new Promise<BallastStatus>((resolve) => {
            const id = this.nextId++;
            this.waiting.set(id, (s) => (this.waiting.delete(id), resolve(s)));
            c.send({ kind: "status", id } satisfies BallastCommand);
          }),
      ),
    );
    const errors: Record<string, number> = {};
    for (const s of all) for (const [k, v] of Object.entries({ ...s.counters.errors, ...s.counters.socket.errors })) errors[k] = (errors[k] ?? 0) + v;
    const sum = (f: (s: BallastStatus) => number) => all.reduce((a, s) => a + f(s), 0);
    return {
      connected: sum((s) => s.connected),
      total: sum((s) => s.total),
      reconnects: sum((s) => s.counters.socket.reconnects),
      refused: sum((s) => s.counters.socket.refused),
      errors,
    };
  }
}
