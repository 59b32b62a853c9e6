import Link from "next/link";
import { Fragment } from "react";
import { AlertList } from "@/components/trends/alert-list";
import { currentActor } from "@/lib/auth/actor";
import { listAlerts } from "@/lib/server/alerts/list-alerts";
import { probeIds } from "@/probes/catalog";

const sections = [
  {
    href: "/guides",
    title: "Guides",
    text: "Tuning guides built from classic measurements: ext2/ext3/ext4 benchmarked, disk vs flash vs memory, NUMA zone reclaim for databases, file-system metadata speed, XFS preallocation.",
  },
  {
    href: "/hosts",
    title: "Hosts",
    text: "Register a machine, run the Probebook agent on it and see its profile: kernel, devices, file systems, mount options and vm sysctls.",
  },
  {
    href: "/runs",
    title: "Runs",
    text: "Launch the probes from the browser, watch the output live and keep the parsed numbers with the host profile they were measured on.",
  },
  {
    href: "/compare",
    title: "Compare",
    text: "Set runs side by side — disk vs SSD vs memory, ext3 vs ext4 vs xfs — see what differs between the hosts, and share a read-only link.",
  },
];

/**
 * Signed-in readers see the open regressions first; a visitor sees none (alerts name hosts and
 * their settings). Nothing at all when there is nothing open: a calm start page.
 */
async function OpenRegressions() {
  const actor = await currentActor().catch(() => null);
  if (!actor) return null;
  const alerts = await listAlerts({ state: "open", kind: "regression", limit: 5 });
  return (
    <section className="panel" data-testid="open-regressions-panel" aria-labelledby="open-regressions-title">
      <h2 id="open-regressions-title" style={{ marginTop: 0 }}>
        Open regressions
      </h2>
      {alerts.length === 0 ? (
        <p className="muted" data-testid="no-open-regressions" style={{ margin: 0 }}>
          No series has got slower: nothing to look at.
        </p>
      ) : (
        <>
          <AlertList alerts={alerts} />
          <p className="small" style={{ marginBottom: 0 }}>
            <Link href="/alerts">All alerts</Link>
          </p>
        </>
      )}
    </section>
  );
}

export default async function HomePage() {
  return (
    <>
      <h1>Measure, compare and tune Linux storage and memory</h1>
      <p className="lead">
        Probebook is a self-hosted dashboard and knowledge base for sysadmins, DBAs and performance engineers. It runs real
        probes on your hosts —{" "}
        {probeIds.map((id, i) => (
          <Fragment key={id}>
            {i === 0 ? "" : i === probeIds.length - 1 ? " and " : ", "}
            <code>{id}</code>
          </Fragment>
        ))}{" "}
        — streams their
        output live, stores the parsed results with the host&apos;s profile in PostgreSQL, and sets them beside published
        measurements so you can tell what a tuning change really did.
      </p>
      <OpenRegressions />
      <div className="cards">
        {sections.map((s) => (
          <Link key={s.href} href={s.href} className="card">
            <h2>{s.title}</h2>
            <p>{s.text}</p>
          </Link>
        ))}
      </div>
      <div className="panel">
        <h2 style={{ marginTop: 0 }}>Getting started</h2>
        <ol>
          <li>
            Create an account: <code>npm run admin -- user create --email you@example.com --password … --role admin</code>
          </li>
          <li>
            <Link href="/sign-in">Sign in</Link>, open <Link href="/hosts">Hosts</Link> and register a machine.
          </li>
          <li>Launch a run on disk and the same on <code>/dev/shm</code> (memory), then compare them.</li>
        </ol>
      </div>
    </>
  );
}
