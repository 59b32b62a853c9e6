import { pgPool } from "../../pg-pool";
import { instance } from "../../instance/instance";
import { metrics } from "../../instance/metrics";

/** The dashboard's online window (lib/server/hosts/host-summary.ts), for probebook_hosts_online. */
const ONLINE_SEC = 90;

/**
 * The statuses counted at each scrape: those a run is in now and leaves. Ended runs only grow
 * (a count of every run by status took 80 ms a scrape at a million runs here); these two are a
 * short range of the status index whatever the history.
 */
const LIVE_STATUSES = ["QUEUED", "RUNNING"] as const;

/**
 * One statement per scrape: queued and running runs and the oldest queued one (the status
 * index), and the hosts seen within the online window (hosts(last_seen_at)).
 */
const SCRAPE_SQL = `
  SELECT
    (SELECT COALESCE(json_object_agg(status, n), '{}'::json)
       FROM (SELECT status::text AS status, count(*)::int AS n FROM probe_runs WHERE status IN ('QUEUED', 'RUNNING') GROUP BY status) s) AS runs,
    (SELECT COALESCE(EXTRACT(EPOCH FROM now() - min(created_at)), 0)::float8 FROM probe_runs WHERE status = 'QUEUED') AS oldest_queued_sec,
    (SELECT count(*)::int FROM hosts WHERE last_seen_at > now() - make_interval(secs => $1)) AS hosts_online`;

/**
 * The Prometheus text of this process: the database's figures and the instance's gauges are
 * read now, the counters and histograms are what the instance's work has moved so far.
 */
export async function readMetrics(): Promise<{ text: string; contentType: string }> {
  const m = metrics();
  const { rows } = await pgPool().query<{ runs: Record<string, number>; oldest_queued_sec: number; hosts_online: number }>(SCRAPE_SQL, [ONLINE_SEC]);
  const row = rows[0]!;
  // Zeros included: a series that vanishes reads as "no data", not as none.
  for (const status of LIVE_STATUSES) m.runs.set({ status }, row.runs[status] ?? 0);
  m.queueOldestAge.set(row.oldest_queued_sec);
  m.hostsOnline.set(row.hosts_online);
  const i = instance();
  m.agentSockets.set(i.agentSockets.size);
  m.claimsWaiting.set(i.jobWaiters.waiting);
  m.liveViewers.set(i.runWatch.viewers);
  return { text: await m.registry.metrics(), contentType: m.registry.contentType };
}
