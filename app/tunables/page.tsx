import type { Metadata } from "next";
import Link from "next/link";
import styles from "@/components/guides/guides.module.css";
import { Breakable } from "@/components/breakable";
import { TableScroll } from "@/components/table-scroll";
import { guideHref, loadGuides } from "@/lib/guides/catalog";
import { currentActor, type Actor } from "@/lib/auth/actor";
import { hostValueFor, type HostValue } from "@/lib/guides/host-values";
import { log } from "@/lib/log";
import { listHostProfiles } from "@/lib/server/hosts/list-host-profiles";
import type { HostProfile } from "@/probes/profile/types";
import { tunableExperimentHref, tunableNotOfferedReason } from "@/lib/experiments/start-points";
import { buildTunableIndex, KIND_LABELS, type TunableEntry, type TunableKind } from "@/lib/guides/tunables";

export const metadata: Metadata = {
  title: "Tunables",
  description: "Every sysctl, mount option, command and setting the guides discuss, with the recommended value.",
};

// Host values change whenever an agent reports; read them on every request. The index is public;
// host columns, names and values are for signed-in users only (a profile names directories,
// mount points and devices), so an anonymous visitor gets the index alone.
export const dynamic = "force-dynamic";

interface HostColumn {
  id: string;
  name: string;
  createdAt: Date;
  profile: HostProfile;
}

/** Host columns drawn at once: a fleet would otherwise make the table as wide as the fleet. */
const MAX_HOST_COLUMNS = 3;

/** The hosts named in ?hosts= (at most MAX_HOST_COLUMNS), else the newest ones. */
function chooseHosts(all: HostColumn[], wanted: string | string[] | undefined): HostColumn[] {
  const ids = (Array.isArray(wanted) ? wanted : (wanted ?? "").split(",")).filter(Boolean);
  const picked = all.filter((h) => ids.includes(h.id));
  if (picked.length > 0) return picked.slice(0, MAX_HOST_COLUMNS);
  return [...all].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime()).slice(0, MAX_HOST_COLUMNS);
}

function HostPicker({ all, shown }: { all: HostColumn[]; shown: HostColumn[] }) {
  if (all.length <= shown.length) return null;
  return (
    <form method="get" className="small" data-testid="host-picker">
      Showing {shown.length} of {all.length} hosts.{" "}
      <label>
        Hosts to show (up to {MAX_HOST_COLUMNS}){" "}
        <select name="hosts" multiple size={Math.min(6, all.length)} defaultValue={shown.map((h) => h.id)}>
          {all.map((h) => (
            <option key={h.id} value={h.id}>
              {h.name}
            </option>
          ))}
        </select>
      </label>{" "}
      <button className="btn" type="submit">
        Show
      </button>
    </form>
  );
}

async function readHosts(actor: Actor): Promise<{ hosts: HostColumn[]; failed: boolean }> {
  try {
    return { hosts: await listHostProfiles({ actor }), failed: false };
  } catch (err) {
    // The index itself comes from the guides and is still worth showing without the database.
    log().error("tunables: could not read hosts", { err });
    return { hosts: [], failed: true };
  }
}

function hostValue(entry: TunableEntry, host: HostColumn): HostValue {
  // The first guide's advice is the reference; guides that share a tunable agree on its value.
  const recommended = entry.advice[0]?.recommended ?? "";
  return hostValueFor({ name: entry.name, kind: entry.kind, recommended }, host.profile);
}

function HostValueCell({ value }: { value: HostValue }) {
  const tone = value.status === "ok" ? styles.hostOk : value.status === "warn" ? styles.hostWarn : "";
  return (
    <div className={`${styles.hostValue} ${tone}`}>
      {value.status === "none" ? <span className="muted">{value.text}</span> : <code><Breakable text={value.text} /></code>}
      {/* The verdict is spelled out, not only coloured. */}
      {value.status === "warn" && <span className={styles.verdict}>≠ recommended</span>}
      {value.status === "ok" && <span className={styles.verdict}>✓ as recommended</span>}
      {value.detail && <span className={styles.hostDetail}>{value.detail}</span>}
    </div>
  );
}

const KIND_HEADINGS: Record<TunableKind, string> = {
  sysctl: "Kernel sysctls",
  "mount-option": "Mount options",
  config: "Configuration settings",
  command: "Commands",
};

function HostSummary({ hosts, index }: { hosts: HostColumn[]; index: TunableEntry[] }) {
  return (
    <ul className={styles.hostSummary}>
      {hosts.map((h) => {
        const differing = index.filter((t) => hostValue(t, h).status === "warn").map((t) => t.name);
        return (
          <li key={h.id}>
            <strong>{h.name}</strong>:{" "}
            {differing.length === 0
              ? "no reported value differs from the guides."
              : `${differing.length} value${differing.length === 1 ? " differs" : "s differ"} from the guides (${differing.join(", ")}).`}
          </li>
        );
      })}
    </ul>
  );
}

export default async function TunablesPage({ searchParams }: { searchParams: Promise<{ hosts?: string | string[] }> }) {
  const index = buildTunableIndex(loadGuides());
  const actor = await currentActor().catch(() => null);
  const read = actor ? await readHosts(actor) : { hosts: [], failed: false };
  const { failed } = read;
  const hosts = chooseHosts(read.hosts, (await searchParams).hosts);
  const kinds = [...new Set(index.map((t) => t.kind))];
  const columns = 4 + hosts.length;

  return (
    <>
      <h1>Tunables</h1>
      <p className="lead">
        Every sysctl, mount option, command and configuration setting the guides discuss: the recommended value, why, the
        guide that explains it{actor ? ", and what each registered host has now" : ""}.
      </p>
      <nav aria-label="Kinds of tunable" className={styles.kindNav}>
        {kinds.map((k) => (
          <a key={k} href={`#kind-${k}`}>
            {KIND_HEADINGS[k]} ({index.filter((t) => t.kind === k).length})
          </a>
        ))}
      </nav>
      {!actor ? (
        <p className="empty" data-testid="no-hosts">
          <Link href="/sign-in?next=%2Ftunables">Sign in</Link> to see your hosts&apos; current values next to the recommendations.
        </p>
      ) : failed ? (
        <p className="alert alert-error" role="alert">
          The hosts could not be read from the database, so their current values are not shown.
        </p>
      ) : hosts.length === 0 ? (
        <p className="empty" data-testid="no-hosts">
          <Link href="/hosts">Register a host</Link> to see its current values next to the recommendations.
        </p>
      ) : (
        <div className="panel">
          Current values come from each host&apos;s last profile report.
          <HostSummary hosts={hosts} index={index} />
          <HostPicker all={read.hosts} shown={hosts} />
        </div>
      )}
      <TableScroll label="Tunables" testId="tunables-scroll">
        <table className={`data ${styles.tunablesTable}`}>
          <thead>
            <tr>
              <th scope="col">Name and kind</th>
              <th scope="col">Recommended</th>
              {/* Host values sit beside the recommendation they are compared with. */}
              {hosts.map((h) => (
                <th key={h.id} scope="col">
                  Host {h.name}
                </th>
              ))}
              <th scope="col">Why</th>
              <th scope="col">Explained in</th>
            </tr>
          </thead>
          {kinds.map((kind) => (
            <tbody key={kind}>
              <tr id={`kind-${kind}`}>
                <th scope="colgroup" colSpan={columns}>
                  {KIND_HEADINGS[kind]}
                </th>
              </tr>
              {index
                .filter((t) => t.kind === kind)
                .map((t) => {
                  const several = t.advice.length > 1;
                  return (
                    <tr key={t.name} id={t.anchor} data-testid="tunable-row">
                      <th scope="row" className={styles.nameCell}>
                        <code>
                          <Breakable text={t.name} />
                        </code>
                        <span className="badge">{KIND_LABELS[t.kind]}</span>
                        {tunableExperimentHref(t.name) ? (
                          <Link className="small" href={tunableExperimentHref(t.name)!} prefetch={false} data-testid="try-tunable">
                            Try on a host
                          </Link>
                        ) : tunableNotOfferedReason(t.name) ? (
                          <span className="muted small" data-testid="tunable-not-offered">
                            No one-click experiment: {tunableNotOfferedReason(t.name)}
                          </span>
                        ) : null}
                      </th>
                      <td className={styles.recommendedCell}>
                        {t.advice.map((a) => (
                          <div key={a.guide.slug} className={styles.advice}>
                            <Breakable text={a.recommended} />
                            {several && <div className={styles.adviceFrom}>for: {a.guide.title}</div>}
                          </div>
                        ))}
                      </td>
                      {hosts.map((h) => (
                        <td key={h.id} className={styles.hostCell}>
                          <HostValueCell value={hostValue(t, h)} />
                        </td>
                      ))}
                      <td className={styles.whyCell}>
                        {t.advice.map((a) => (
                          <div key={a.guide.slug} className={styles.advice}>
                            <Breakable text={a.why} />
                          </div>
                        ))}
                      </td>
                      <td className={styles.guidesCell}>
                        {t.advice.map((a) => (
                          <div key={a.guide.slug} className={styles.advice}>
                            <Link href={guideHref(a.guide.slug)}>{a.guide.title}</Link>
                          </div>
                        ))}
                      </td>
                    </tr>
                  );
                })}
            </tbody>
          ))}
        </table>
      </TableScroll>
    </>
  );
}
