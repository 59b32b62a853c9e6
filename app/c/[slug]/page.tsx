import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { CompareBody } from "@/components/compare/compare-body";
import { SweepBody } from "@/components/sweeps/sweep-body";
import styles from "@/components/compare/compare.module.css";
import { buildComparison } from "@/lib/compare/model";
import { serverUrl } from "@/lib/server/hosts/server-url";
import { describeShared, goneShare, requestGoneShare, sharedComparison } from "@/lib/server/comparisons/shared-page";

export const dynamic = "force-dynamic";

interface Props {
  params: Promise<{ slug: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const c = await sharedComparison((await params).slug);
  // Absolute URLs for og:image, as the visitor reached this server (PUBLIC_URL wins).
  const metadataBase = new URL(await serverUrl());
  if (!c) {
    const gone = await goneShare((await params).slug);
    return { metadataBase, title: gone ? `Shared comparison ${gone.reason}` : "Comparison not found", robots: { index: false, follow: false } };
  }
  const description = describeShared(c);
  return {
    metadataBase,
    title: c.title,
    description,
    // Unlisted: the link is the access control, so search engines should not list it.
    robots: { index: false, follow: false },
    openGraph: { type: "article", title: c.title, description, siteName: "Probebook" },
    twitter: { card: "summary_large_image", title: c.title, description },
  };
}

/** Public, read-only: a comparison frozen when it was shared. */
export default async function SharedComparisonPage({ params, searchParams }: Props) {
  const { slug } = await params;
  const note = requestGoneShare();
  let c: Awaited<ReturnType<typeof sharedComparison>>;
  try {
    c = await sharedComparison(slug);
    // Still a 404, but a link that once worked says what became of it (not-found.tsx waits for this).
    if (!c) note.settle(await goneShare(slug));
  } finally {
    note.settle(null);
  }
  if (!c) notFound();
  const fold = (await searchParams).fold !== "0";
  const model = buildComparison(c.runs, { fold });
  const hasRepeats = model.series.some((s) => s.runIds.length > 1) || (!fold && c.runs.length > 1);
  const created = new Date(c.createdAt).toLocaleString("en-GB", { timeZone: "UTC", dateStyle: "medium", timeStyle: "short" });
  // A shared sweep: its own view, frozen with host and target left out unless the sharer chose them.
  const sweep = c.experiment?.sweep;
  if (sweep) {
    return (
      <>
        <p className="muted small">Shared sweep · read-only</p>
        <h1 data-testid="shared-title">{c.title}</h1>
        <p className="muted">
          A fio queue-depth sweep frozen on {created} UTC. Measured with <Link href="/">Probebook</Link>.
        </p>
        <SweepBody view={sweep} linkRuns={false} />
        <p className="small">
          Download the runs: <a href={`/api/comparisons/${slug}/csv`}>CSV</a> · <a href={`/api/comparisons/${slug}`}>JSON</a>
        </p>
      </>
    );
  }
  return (
    <>
      <p className="muted small">Shared comparison · read-only</p>
      <h1 data-testid="shared-title">{c.title}</h1>
      <p className="muted">
        {c.runs.length} run{c.runs.length === 1 ? "" : "s"} frozen on {created} UTC with their host profiles. Measured with{" "}
        <Link href="/">Probebook</Link>.
      </p>
      {c.experiment ? (
        <section className="verdict-card" data-testid="shared-verdict" aria-label="Experiment verdict">
          <h2 style={{ marginTop: 0 }}>Experiment verdict ({c.experiment.status.toLowerCase()})</h2>
          {c.experiment.hostRemoved ? (
            <p className="muted small" data-testid="host-removed">
              Measured on a host that has since been removed (from a removed host).
            </p>
          ) : null}
          {c.experiment.decisionMessage ? <p className="muted">{c.experiment.decisionMessage}</p> : null}
          {c.experiment.verdict.slice(0, 12).map((l) => (
            <p key={`${l.metric}|${l.arm}|${l.sentence}`} className="sentence">
              {l.sentence}
            </p>
          ))}
          <p className="small">
            Arms: {c.experiment.arms.map((a) => `${a.label}${a.setup && a.setup !== a.label ? ` (${a.setup})` : ""}: median ${a.median === null ? "–" : a.median.toFixed(1)}${c.experiment?.unit ? ` ${c.experiment.unit}` : ""}, ${a.runs} runs`).join(" · ")}. At least {c.experiment.policy.min}, at most {c.experiment.policy.max} rounds, CV target {c.experiment.policy.cvTarget} %.
          </p>
          {c.experiment.warnings.length > 0 ? (
            <ul className="small">
              {c.experiment.warnings.map((w) => (
                <li key={w}>{w}</li>
              ))}
            </ul>
          ) : null}
        </section>
      ) : null}
      <div className={styles.toolbar}>
        <span className="small">
          Download: <a href={`/api/comparisons/${slug}/csv`}>CSV</a> · <a href={`/api/comparisons/${slug}`}>JSON</a>
        </span>
        <span className={styles.spacer} />
        {hasRepeats ? (
          <Link className="small" href={fold ? `/c/${slug}?fold=0` : `/c/${slug}`}>
            {fold ? "Show every run separately" : "Fold repeats into medians"}
          </Link>
        ) : null}
      </div>
      <CompareBody model={model} />
    </>
  );
}
