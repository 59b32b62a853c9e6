import { pgPool } from "../pg-pool";
import { HOST_JOBS_CHANNEL } from "../notifications";
import type { PgListener } from "./pg-listener";
import type { HostToucher } from "./touch-hosts";

/** One agent's open socket, as the registry sees it (lib/gateway/agent-socket-server.ts makes them). */
export interface AgentConnection {
  readonly hostId: string;
  readonly credentialHash: string;
  /** Cleared at each ping, set again by the agent's pong. */
  alive: boolean;
  ping(): void;
  /** Drops a connection that did not answer the last ping. */
  terminate(): void;
  /** Closes with the revoked code and this reason: the credential no longer opens the host. */
  revoke(reason: string): void;
  /** Closes with "going away" (the instance stops). */
  close(reason: string): void;
}

/**
 * The agent sockets open on this instance, by host. One timer for all of them: every pingMs each
 * socket is pinged, and one that did not answer the previous ping is dropped (its agent
 * reconnects, perhaps to another instance). Liveness comes from the pongs: the host's
 * last_seen_at is written at most every SOCKET_TOUCH_EVERY_MS, batched (touch-hosts.ts).
 *
 * Revocation closes a socket at once, not at its next request: every change that revokes a
 * credential (re-registration, deleting the host) notifies the host's channel, and on a
 * notification for a host with sockets here the registry checks their credentials in one
 * statement. A sweep of every socket's credential each REVALIDATE_MS covers a notification
 * lost while the listening connection was down.
 */
export const SOCKET_TOUCH_EVERY_MS = 45_000;
const REVALIDATE_MS = 60_000;

export class AgentSockets {
  private readonly byHost = new Map<string, Set<AgentConnection>>();
  private listening: Promise<unknown> | null = null;
  private timers: NodeJS.Timeout[] = [];
  private count = 0;

  constructor(
    private readonly listener: PgListener,
    private readonly toucher: HostToucher,
    private readonly pingMs: number,
  ) {}

  get size(): number {
    return this.count;
  }

  /** Registers an open socket; resolves once the instance listens for its host's revocation. */
  async add(conn: AgentConnection): Promise<() => void> {
    let set = this.byHost.get(conn.hostId);
    if (!set) this.byHost.set(conn.hostId, (set = new Set()));
    set.add(conn);
    this.count++;
    this.toucher.touch(conn.hostId);
    this.startTimers();
    this.listening ??= this.listener.subscribe(HOST_JOBS_CHANNEL, (hostId) => void this.recheck(this.byHost.get(hostId)).catch(() => undefined));
    await this.listening;
    return () => {
      const s = this.byHost.get(conn.hostId);
      if (!s?.delete(conn)) return;
      this.count--;
      if (s.size === 0) this.byHost.delete(conn.hostId);
    };
  }

  /** The agent answered a ping: it is alive, and so is its host. */
  pong(conn: AgentConnection): void {
    conn.alive = true;
    this.toucher.touch(conn.hostId, Date.now(), SOCKET_TOUCH_EVERY_MS);
  }

  /** Closes every socket ("going away": agents reconnect, to this instance once it is back or to another). */
  closeAll(reason: string): void {
    for (const set of this.byHost.values()) for (const c of set) c.close(reason);
  }

  stop(): void {
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
  }

  private startTimers(): void {
    if (this.timers.length > 0) return;
    const every = (ms: number, fn: () => unknown) => {
      const t = setInterval(fn, ms);
      t.unref();
      return t;
    };
    this.timers = [every(this.pingMs, () => this.pingAll()), every(REVALIDATE_MS, () => void this.recheck(this.all()).catch(() => undefined))];
  }

  private pingAll(): void {
    for (const set of this.byHost.values()) {
      for (const c of set) {
        if (!c.alive) {
          c.terminate();
          continue;
        }
        c.alive = false;
        c.ping();
      }
    }
  }

  private *all(): Iterable<AgentConnection> {
    for (const set of this.byHost.values()) yield* set;
  }

  /** Revokes the sockets whose credential no host holds any more: one statement for all of them. */
  private async recheck(conns: Iterable<AgentConnection> | undefined): Promise<void> {
    const list = [...(conns ?? [])];
    if (list.length === 0) return;
    const hashes = [...new Set(list.map((c) => c.credentialHash))];
    const { rows } = await pgPool().query<{ id: string; hash: string }>(
      "SELECT id::text AS id, agent_credential_hash AS hash FROM hosts WHERE agent_credential_hash = ANY($1::text[])",
      [hashes],
    );
    const valid = new Set(rows.map((r) => `${r.id} ${r.hash}`));
    for (const c of list) if (!valid.has(`${c.hostId} ${c.credentialHash}`)) c.revoke("The agent credential was revoked: the host was re-registered or deleted.");
  }
}
