// Statements per second by statement text, from pg_stat_statements (the bench starts the embedded
// server with PROBEBOOK_PG_PRELOAD=pg_stat_statements). Without it, transactions per second from
// pg_stat_database: every statement the app sends outside a transaction is one, so it is the same
// count, only not broken down.
import pg from "pg";

export interface StatementRate {
  query: string;
  perSec: number;
}

export class StatementCounter {
  private constructor(
    private readonly client: pg.Client,
    readonly source: "pg_stat_statements" | "pg_stat_database",
  ) {}

  static async open(databaseUrl: string): Promise<StatementCounter> {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      await client.query("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
      await client.query("SELECT 1 FROM pg_stat_statements LIMIT 1");
      return new StatementCounter(client, "pg_stat_statements");
    } catch {
      return new StatementCounter(client, "pg_stat_database");
    }
  }

  /** Starts a window; the returned function gives the busiest statements over it. */
  async start(): Promise<() => Promise<{ totalPerSec: number; top: StatementRate[] }>> {
    const t0 = performance.now();
    if (this.source === "pg_stat_statements") {
      await this.client.query("SELECT pg_stat_statements_reset()");
      return async () => {
        const sec = (performance.now() - t0) / 1000;
        const { rows } = await this.client.query<{ query: string; calls: string }>(
          `SELECT regexp_replace(query, '\\s+', ' ', 'g') AS query, calls FROM pg_stat_statements
           WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
             AND query NOT ILIKE '%pg_stat_statements%'
           ORDER BY calls DESC`,
        );
        const rates = rows.map((r) => ({ query: r.query.slice(0, 140), perSec: Number(r.calls) / sec }));
        return { totalPerSec: rates.reduce((a, r) => a + r.perSec, 0), top: rates.slice(0, 8) };
      };
    }
    const read = async () => Number((await this.client.query<{ n: string }>("SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = current_database()")).rows[0]?.n ?? 0);
    const a = await read();
    return async () => {
      const sec = (performance.now() - t0) / 1000;
      // Stats are flushed by backends at most every second; the window is long enough for that.
      const perSec = ((await read()) - a - 1) / sec;
      return { totalPerSec: perSec, top: [{ query: "(all transactions)", perSec }] };
    };
  }

  close(): Promise<void> {
    return this.client.end();
  }
}
