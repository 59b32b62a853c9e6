import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { DeleteButton } from "@/components/delete-button";
import { AgentVersion, upgradeCommand } from "@/components/hosts/agent-version";
import { minuteUtc } from "@/components/format-time";
import { HostChangesView } from "@/components/hosts/host-changes";
import { RecheckTools } from "@/components/hosts/recheck-tools";
import { ReregisterForm } from "@/components/hosts/reregister-form";
import { SeriesList } from "@/components/trends/series-list";
import { mayChange } from "@/lib/auth/ownership";
import { requirePageUser } from "@/lib/auth/page-guard";
import { roleAtLeast } from "@/lib/auth/roles";
import { AppError } from "@/lib/http/app-error";
import { isUuid } from "@/lib/http/params";
import { getHost } from "@/lib/server/hosts/get-host";
import { hostChanges } from "@/lib/server/hosts/host-changes";
import { hostSummary } from "@/lib/server/hosts/host-summary";
import { serverUrl } from "@/lib/server/hosts/server-url";
import { listHistoryDays } from "@/lib/server/runs/list-history-days";
import { listHostRuns } from "@/lib/server/runs/list-host-runs";
import { listSeries } from "@/lib/server/series/list-series";
import { recheckToolsAction, reregisterHostAction, setMediumOverrideAction } from "../actions";

export const metadata: Metadata = { title: "Host" };
export const dynamic = "force-dynamic";

export default async function HostPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const actor = await requirePageUser(`/hosts/${id}`);
  if (!isUuid(id)) notFound();
  const host = await getHost({ id }).catch((err: unknown) => {
    if (err instanceof AppError && err.code === "NOT_FOUND") notFound();
    throw err;
  });
  const s = hostSummary(host);
  const overrides = (host.mediumOverrides ?? {}) as Record<string, string>;
  const operator = roleAtLeast(actor.role, "OPERATOR");
  const [runs, historyDays, server, series] = await Promise.all([listHostRuns({ hostId: id, take: 20 }), listHistoryDays({ hostId: id }), serverUrl(), listSeries({ hostId: id })]);
  return (
    <>
      <p className="muted small">
        <Link href="/hosts">Hosts</Link> / {host.name}
      </p>
      <h1>
        {host.name} <span className={`badge ${s.online ? "badge-SUCCEEDED" : ""}`} data-testid="agent-state">{s.agentState}</span>{" "}
        <AgentVersion version={s.agentVersion} outdated={s.agentOutdated} current={s.currentAgentVersion} server={server} />
      </h1>
      {s.agentOutdated ? (
        <p className="muted small" data-testid="agent-upgrade">
          This server ships agent {s.currentAgentVersion}. Upgrade this host&apos;s agent on the host (it finishes its running probe first):{" "}
          <code style={{ overflowWrap: "anywhere" }}>{upgradeCommand(server)}</code>
        </p>
      ) : null}
      {operator && host.agentRegisteredAt ? (
        <p>
          <Link className="btn btn-primary" href={`/runs/new?host=${host.id}`}>
            Launch a probe
          </Link>
        </p>
      ) : null}
      <div className="cards">
        <div className="card">
          <h3>System</h3>
          <p>
            {s.profile.distro ?? "—"}
            <br />
            Linux {s.kernel ?? "—"}
            <br />
            {s.cpu ?? "—"} · {s.memory ?? "—"} · {s.profile.numa.nodes ?? "?"} NUMA node(s)
          </p>
        </div>
        <div className="card">
          <h3>Memory management</h3>
          <p>
            {Object.entries(s.profile.sysctls).map(([k, v]) => (
              <span key={k}>
                <code>{k}</code> = {v}
                <br />
              </span>
            ))}
            THP: {s.profile.thp.enabled ?? "—"} (defrag {s.profile.thp.defrag ?? "—"})
          </p>
        </div>
        <div className="card" data-testid="host-tools">
          <h3>Tools</h3>
          <p>
            {Object.entries(s.tools).map(([name, t]) => (
              <span key={name}>
                {name}: {t.installed ? (t.version ?? "installed") : "missing"}
                <br />
              </span>
            ))}
          </p>
          <p className="muted small" data-testid="tools-checked">
            Checked {minuteUtc(s.toolsCheckedAt, "never")} UTC; the agent checks again every 5 minutes when idle.
          </p>
          {operator && host.agentRegisteredAt ? <RecheckTools hostId={host.id} pending={s.recheckPending} recheck={recheckToolsAction} /> : null}
        </div>
      </div>
      {s.missingTools.length > 0 ? (
        <div className="alert alert-warn" data-testid="missing-tools">
          <strong>Probes this host cannot run yet</strong>
          <ul>
            {s.missingTools.map((m) => (
              <li key={m.probe}>
                <strong>{m.probe}</strong>: <span style={{ overflowWrap: "anywhere" }}>{m.message}</span>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <h2>Allowed directories</h2>
      <div className="table-wrap">
        <table className="data">
          <thead>
            <tr>
              <th>Path</th>
              <th>File system</th>
              <th>Source</th>
              <th>Mount options</th>
              <th>Medium</th>
              <th className="num">Free</th>
            </tr>
          </thead>
          <tbody>
            {s.targets.map((t) => (
              <tr key={t.path}>
                <td>{t.path}</td>
                <td>{t.fsType ?? "—"}</td>
                <td>{t.source ?? t.device ?? "—"}</td>
                <td className="small">{t.mountOptions.join(",")}</td>
                <td>
                  {t.device && operator && t.fsType !== "tmpfs" ? (
                    <form key={`${t.device}-${overrides[t.device] ?? "auto"}`} action={setMediumOverrideAction} style={{ display: "flex", gap: 6 }}>
                      <input type="hidden" name="hostId" value={host.id} />
                      <input type="hidden" name="device" value={t.device} />
                      <select name="medium" defaultValue={overrides[t.device] ?? "auto"} aria-label={`Medium of ${t.device}`}>
                        <option value="auto">auto ({t.medium ?? "?"})</option>
                        <option value="ssd">ssd</option>
                        <option value="disk">disk</option>
                        <option value="memory">memory</option>
                      </select>
                      <button className="btn" type="submit">
                        Set
                      </button>
                    </form>
                  ) : (
                    (overrides[t.device ?? ""] ?? t.medium ?? "—")
                  )}
                </td>
                <td className="num">{t.freeBytes ? `${(t.freeBytes / 2 ** 30).toFixed(1)} GiB` : "—"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {host.agentRegisteredAt ? (
        <>
          <h2>What experiments may change</h2>
          <HostChangesView changes={hostChanges(host.capabilities)} />
        </>
      ) : null}
      <h2>Series</h2>
      <p className="muted small">Runs of the same test over time: is this host getting slower, and what changed when it did.</p>
      <SeriesList series={series} />
      <h2>Recent runs</h2>
      {runs.length === 0 ? (
        <div className="empty">No runs on this host yet.</div>
      ) : (
        <ul>
          {runs.map((r) => (
            <li key={r.id}>
              <Link href={`/runs/${r.id}`}>{r.probe}</Link> <span className={`badge badge-${r.status}`}>{r.status.toLowerCase()}</span>{" "}
              <span className="muted small">{r.createdAt.toISOString().slice(0, 16).replace("T", " ")}</span>
            </li>
          ))}
        </ul>
      )}
      <h2>History</h2>
      {historyDays.length === 0 ? (
        <div className="empty" data-testid="history-days">
          No sysstat days uploaded. Start the agent with <code>--history</code> to send this host&apos;s finished days from
          /var/log/sa or /var/log/sysstat.
        </div>
      ) : (
        <>
          <p className="muted small">
            The host&apos;s own recorded daily files, one run per finished day, read with its own tools.{" "}
            <Link href={`/runs?hostId=${host.id}&origin=HISTORY`}>All as runs</Link>
          </p>
          <ul className="history-days" data-testid="history-days">
            {historyDays.map((d) => (
              <li key={d.runId}>
                <Link href={`/runs/${d.runId}`}>{d.day}</Link>
                {d.warnings > 0 ? <span className="muted small"> · {d.warnings} warning{d.warnings === 1 ? "" : "s"}</span> : null}
              </li>
            ))}
          </ul>
        </>
      )}
      {/* Re-registering hands the host's agent and its jobs to whoever runs the new token: the right to delete. */}
      {mayChange(actor, host.createdById) ? (
        <>
          <h2>Agent credential</h2>
          <p className="muted">If the host was compromised or rebuilt, revoke its credential; the running agent is refused at its next request and needs a new registration token.</p>
          <ReregisterForm hostId={host.id} reregister={reregisterHostAction} />
        </>
      ) : null}
      {mayChange(actor, host.createdById) ? (
        <>
          <h2>Delete host</h2>
          <p className="muted">Its runs and experiments stay readable, marked as from a removed host; queued and running runs are cancelled, running experiments end, and its agent is refused from then on.</p>
          <DeleteButton url={`/api/hosts/${host.id}`} label="Delete host" consequence={`Delete ${host.name}? Its agent stops working; its runs are kept.`} after="/hosts" />
        </>
      ) : null}
    </>
  );
}
