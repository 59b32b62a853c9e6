"use client";

/**
 * The guide list with search as you type. The server passes the guides and their search
 * documents as plain data; the index is built here (ten documents take a millisecond) so
 * searching needs no round trip.
 */
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useId, useMemo, useState, type FormEvent } from "react";
import type { GuideListItem } from "@/lib/guides/catalog";
import { createGuideIndex, makeSnippet, searchGuides, type GuideSearchDocument, type Snippet } from "@/lib/guides/search";
import styles from "./guides.module.css";

export interface GuideSearchProps {
  guides: GuideListItem[];
  documents: GuideSearchDocument[];
}

interface Item {
  guide: GuideListItem;
  snippet: Snippet | null;
}

function SnippetText({ snippet }: { snippet: Snippet }) {
  return (
    <p className={styles.snippet}>
      {snippet.clippedStart && "… "}
      {snippet.parts.map((p, i) => (p.match ? <mark key={i}>{p.text}</mark> : <span key={i}>{p.text}</span>))}
      {snippet.clippedEnd && " …"}
    </p>
  );
}

function GuideCard({ item }: { item: Item }) {
  const { guide, snippet } = item;
  return (
    <li className={`card ${styles.guideCard}`}>
      <h2 className={styles.guideCardTitle}>
        <Link href={`/guides/${guide.slug}`}>{guide.title}</Link>
      </h2>
      <p>{guide.summary}</p>
      {snippet && <SnippetText snippet={snippet} />}
      <ul className={styles.tags} aria-label="Tags">
        {guide.tags.map((t) => (
          <li key={t} className="badge">
            {t}
          </li>
        ))}
      </ul>
      <p className={styles.sourceLine}>
        Source: <cite>{guide.source.title}</cite>
        {guide.source.titleEnglish ? ` (“${guide.source.titleEnglish}”)` : ""} — {guide.source.author}, {guide.source.year}
      </p>
    </li>
  );
}

export function GuideSearch({ guides, documents }: GuideSearchProps) {
  const [query, setQuery] = useState("");
  const router = useRouter();
  const inputId = useId();
  const statusId = useId();

  const index = useMemo(() => createGuideIndex(documents), [documents]);
  const textById = useMemo(() => new Map(documents.map((d) => [d.id, d.text])), [documents]);
  const guideBySlug = useMemo(() => new Map(guides.map((g) => [g.slug, g])), [guides]);

  const searching = query.trim() !== "";
  const items: Item[] = useMemo(() => {
    if (!searching) return guides.map((guide) => ({ guide, snippet: null }));
    return searchGuides(index, query).flatMap((r) => {
      const guide = guideBySlug.get(String(r.id));
      if (!guide) return [];
      return [{ guide, snippet: makeSnippet(textById.get(guide.slug) ?? "", r.terms) }];
    });
  }, [searching, guides, index, query, guideBySlug, textById]);

  // Enter opens the best match, so a keyboard user can type and go.
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const first = searching ? items[0] : undefined;
    if (first) router.push(`/guides/${first.guide.slug}`);
  };

  const count = items.length;
  const status = searching
    ? `${count === 0 ? "No" : count} guide${count === 1 ? "" : "s"} match “${query.trim()}”.`
    : `${count} guide${count === 1 ? "" : "s"}.`;

  return (
    <>
      <form role="search" className={styles.searchForm} onSubmit={onSubmit}>
        <label htmlFor={inputId} className={styles.searchLabel}>
          Search the guides
        </label>
        <input
          id={inputId}
          type="search"
          className={styles.searchInput}
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          placeholder="zone_reclaim, vm.dirty_ratio, noatime, ext4…"
          autoComplete="off"
          spellCheck={false}
          aria-describedby={statusId}
        />
      </form>
      <p id={statusId} className={styles.searchStatus} role="status" aria-live="polite">
        {status}
      </p>
      {count === 0 ? (
        <div className="empty">
          No guide mentions “{query.trim()}”. Try fewer words, a shorter word, or a tunable name such as{" "}
          <code>vm.dirty_ratio</code>.
        </div>
      ) : (
        <ul className={styles.guideList} aria-label={searching ? "Search results" : "All guides"} data-testid="guide-results">
          {items.map((item) => (
            <GuideCard key={item.guide.slug} item={item} />
          ))}
        </ul>
      )}
    </>
  );
}
