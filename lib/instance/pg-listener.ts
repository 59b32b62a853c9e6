import pg from "pg";
import { resolveDatabaseUrlForTools } from "../runtime/database-url-file";

type Handler = (payload: string) => void;

/**
 * One LISTEN connection per server process, shared by every SSE stream and long-poll in it.
 * PostgreSQL is the fan-out, so any number of app instances see every notification; this
 * class only multiplexes one connection among local subscribers and reconnects after a drop.
 * The connection opens with the first subscription (pages can be built without a database).
 */
export class PgListener {
  private client: pg.Client | null = null;
  private connecting: Promise<pg.Client> | null = null;
  private handlers = new Map<string, Set<Handler>>();
  private retry: NodeJS.Timeout | null = null;
  private stopped = false;

  private async connect(): Promise<pg.Client> {
    if (this.client) return this.client;
    this.connecting ??= (async () => {
      const client = new pg.Client({ connectionString: resolveDatabaseUrlForTools() });
      client.on("notification", (msg) => {
        for (const h of this.handlers.get(msg.channel) ?? []) h(msg.payload ?? "");
      });
      client.on("error", () => this.reset());
      client.on("end", () => this.reset());
      await client.connect();
      for (const channel of this.handlers.keys()) await client.query(`LISTEN ${channel}`);
      this.client = client;
      return client;
    })().finally(() => {
      this.connecting = null;
    });
    return this.connecting;
  }

  private reset() {
    const old = this.client;
    this.client = null;
    old?.end().catch(() => undefined);
    // Subscribers re-read from the database on their own timers, so a gap loses nothing;
    // reconnect in the background so notifications resume.
    if (this.handlers.size > 0 && !this.stopped && !this.retry) {
      this.retry = setTimeout(() => {
        this.retry = null;
        void this.connect().catch(() => this.reset());
      }, 1000);
      this.retry.unref();
    }
  }

  /** Whether the LISTEN session is open now. */
  get connected(): boolean {
    return this.client !== null;
  }

  /** Closes the session and forgets every subscriber (tests, shutdown); no reconnect follows. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    this.handlers.clear();
    const client = this.client ?? (await this.connecting?.catch(() => null)) ?? null;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  async subscribe(channel: string, handler: Handler): Promise<() => void> {
    if (!/^[a-z0-9_]{1,63}$/.test(channel)) throw new Error(`bad channel name ${channel}`);
    if (this.stopped) throw new Error("this instance has stopped: no new subscriptions");
    let set = this.handlers.get(channel);
    const isNew = !set;
    if (!set) {
      set = new Set();
      this.handlers.set(channel, set);
    }
    set.add(handler);
    if (isNew) {
      try {
        const client = await this.connect();
        await client.query(`LISTEN ${channel}`);
      } catch {
        // The database is away: the subscriber's polling fallback covers the gap.
      }
    }
    return () => {
      const s = this.handlers.get(channel);
      if (!s) return;
      s.delete(handler);
      if (s.size === 0) {
        this.handlers.delete(channel);
        this.client?.query(`UNLISTEN ${channel}`).catch(() => undefined);
      }
    };
  }
}

// The channels and their payloads are lib/notifications.ts's.
export { HOST_JOBS_CHANNEL, runChannel } from "../notifications";
