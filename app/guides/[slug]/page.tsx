import type { Metadata } from "next";
import { guideExperiment } from "@/lib/experiments/start-points";
import Link from "next/link";
import { notFound } from "next/navigation";
import { GuideBody } from "@/components/guides/guide-body";
import styles from "@/components/guides/guides.module.css";
import { TunableLink } from "@/components/guides/tunable-link";
import { guideHref, languageName, loadGuide, loadGuides, relatedGuides, type Guide } from "@/lib/guides/catalog";
import { KIND_LABELS } from "@/lib/guides/tunables";
import { assertGuidesValid } from "@/lib/guides/validate";

interface GuidePageProps {
  params: Promise<{ slug: string }>;
}

// Every guide is known at build time; any other slug is a 404 without touching the file system.
export const dynamicParams = false;

export function generateStaticParams(): Array<{ slug: string }> {
  const guides = loadGuides();
  assertGuidesValid(guides);
  return guides.map((g) => ({ slug: g.slug }));
}

export async function generateMetadata({ params }: GuidePageProps): Promise<Metadata> {
  const guide = loadGuide((await params).slug);
  if (!guide) return {};
  return { title: guide.frontmatter.title, description: guide.frontmatter.summary };
}

function SourceBlock({ guide }: { guide: Guide }) {
  const { source } = guide.frontmatter;
  const language = languageName(source.language);
  const lang = source.language && source.language !== "en" ? source.language : undefined;
  const original = <cite lang={lang}>{source.title}</cite>;
  const title = (
    <>
      {source.url ? (
        <a href={source.url} rel="noreferrer">
          {original}
        </a>
      ) : (
        original
      )}
      {source.titleEnglish && <> (“{source.titleEnglish}”)</>}
    </>
  );
  return (
    <div className={styles.sourceBlock}>
      <p>
        Source: {title} — {source.author}
        {source.site ? `, ${source.site}` : ""}, {source.year}.
      </p>
      {language && language !== "English" && (
        <p>
          The source is written in {language}; this guide summarises it in English and keeps its figures as published.
        </p>
      )}
      {source.note && <p>{source.note}</p>}
    </div>
  );
}

function TunablesBox({ guide }: { guide: Guide }) {
  const { tunables } = guide.frontmatter;
  if (tunables.length === 0) return null;
  return (
    <aside className={`panel ${styles.tunablesBox}`} aria-labelledby="tunables-box-heading">
      <h2 id="tunables-box-heading">Tunables</h2>
      <ul>
        {tunables.map((t) => (
          <li key={t.name}>
            <span className={styles.tunableName}>
              <TunableLink name={t.name} />
              <span className="badge">{KIND_LABELS[t.kind]}</span>
            </span>
            <span className={styles.tunableRecommended}>{t.recommended}</span>
          </li>
        ))}
      </ul>
      <p className="small">
        <Link href="/tunables" prefetch={false}>
          See every tunable and your hosts’ current values →
        </Link>
      </p>
    </aside>
  );
}

export default async function GuidePage({ params }: GuidePageProps) {
  const { slug } = await params;
  const guide = loadGuide(slug);
  if (!guide) notFound();
  const fm = guide.frontmatter;
  const related = relatedGuides(guide, loadGuides());
  const experiment = guideExperiment(slug);

  return (
    <article className={styles.guide}>
      <nav aria-label="Breadcrumb" className={styles.breadcrumb}>
        <Link href="/guides">← All guides</Link>
      </nav>
      <header className={styles.guideHeader}>
        <h1>{fm.title}</h1>
        <p className="lead">{fm.summary}</p>
        <SourceBlock guide={guide} />
        <ul className={styles.tags} aria-label="Tags">
          {fm.tags.map((t) => (
            <li key={t} className="badge">
              {t}
            </li>
          ))}
        </ul>
      </header>
      <TunablesBox guide={guide} />
      {experiment ? (
        <p className="panel" data-testid="guide-experiment">
          <Link className="btn btn-primary" href={experiment.href} prefetch={false}>
            {experiment.label}
          </Link>{" "}
          <span className="muted small">{experiment.note}</span>
        </p>
      ) : null}
      <div className={styles.prose}>
        <GuideBody source={guide.body} />
      </div>
      {related.length > 0 && (
        <section aria-labelledby="related-heading">
          <h2 id="related-heading">Related guides</h2>
          <ul className={styles.relatedList}>
            {related.map((r) => (
              <li key={r.slug} className="card">
                <h3>
                  <Link href={guideHref(r.slug)}>{r.frontmatter.title}</Link>
                </h3>
                <p>{r.frontmatter.summary}</p>
              </li>
            ))}
          </ul>
        </section>
      )}
    </article>
  );
}
