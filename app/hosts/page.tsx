import type { Metadata } from "next";
import Link from "next/link";
import { requirePageUser } from "@/lib/auth/page-guard";
import { roleAtLeast } from "@/lib/auth/roles";
import { AgentVersion } from "@/components/hosts/agent-version";
import { hostSummary } from "@/lib/server/hosts/host-summary";
import { listHosts } from "@/lib/server/hosts/list-hosts";
import { serverUrl } from "@/lib/server/hosts/server-url";

export const metadata: Metadata = { title: "Hosts" };
export const dynamic = "force-dynamic";

export default async function HostsPage() {
  const actor = await requirePageUser("/hosts");
  const [hosts, server] = await Promise.all([listHosts(), serverUrl()]);
  return (
    <>
      <h1>Hosts</h1>
      <p className="muted">
        Machines running the Probebook agent.{" "}
        {roleAtLeast(actor.role, "OPERATOR") ? (
          <Link className="btn btn-primary" href="/hosts/new">
            Add host
          </Link>
        ) : null}
      </p>
      {hosts.length === 0 ? (
        <div className="empty">No hosts yet. Add one and start its agent to launch probes from here.</div>
      ) : (
        <div className="table-wrap">
          <table className="data" data-testid="hosts-table">
            <thead>
              <tr>
                <th>Name</th>
                <th>Agent</th>
                <th>Kernel</th>
                <th>CPU</th>
                <th>Memory</th>
                <th>Allowed directories</th>
              </tr>
            </thead>
            <tbody>
              {hosts.map((h) => {
                const s = hostSummary(h);
                return (
                  <tr key={h.id}>
                    <td>
                      <Link href={`/hosts/${h.id}`}>{h.name}</Link>
                    </td>
                    <td>
                      <span className={`badge ${s.online ? "badge-SUCCEEDED" : ""}`}>{s.agentState}</span>{" "}
                      <AgentVersion version={s.agentVersion} outdated={s.agentOutdated} current={s.currentAgentVersion} server={server} />
                    </td>
                    <td>{s.kernel ?? "—"}</td>
                    <td>{s.cpu ?? "—"}</td>
                    <td>{s.memory ?? "—"}</td>
                    <td>{s.targets.map((t) => `${t.path} (${t.fsType ?? "?"}, ${t.medium ?? "?"})`).join(", ") || "—"}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
