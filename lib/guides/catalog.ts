/**
 * Server-side access to the guides for the pages: the sorted list, one guide, the data the
 * list page and the search box need, related guides. Reads content/ through content/load.ts,
 * which validates every frontmatter block with zod.
 */
import { getGuide, listGuides, type Guide } from "@/content/load";
import type { GuideSource } from "@/content/schema";
import { mdxToPlainText } from "./mdx-text";
import type { GuideSearchDocument } from "./search";

export type { Guide };

/** What the guide list shows for one guide; plain data for the client search component. */
export interface GuideListItem {
  slug: string;
  title: string;
  summary: string;
  tags: string[];
  source: GuideSource;
}

/** All guides, in frontmatter `order` (content/load.ts sorts them). */
export function loadGuides(): Guide[] {
  return listGuides();
}

export function loadGuide(slug: string): Guide | null {
  return getGuide(slug);
}

export function guideHref(slug: string): string {
  return `/guides/${slug}`;
}

export function toListItem(guide: Guide): GuideListItem {
  const fm = guide.frontmatter;
  return { slug: guide.slug, title: fm.title, summary: fm.summary, tags: fm.tags, source: fm.source };
}

export function toSearchDocument(guide: Guide): GuideSearchDocument {
  const fm = guide.frontmatter;
  return {
    id: guide.slug,
    title: fm.title,
    summary: fm.summary,
    tags: fm.tags.join(" "),
    tunables: fm.tunables.map((t) => `${t.name} ${t.recommended} ${t.why}`).join(" \n "),
    text: mdxToPlainText(guide.body),
  };
}

/** The guides a guide lists under `related`, in that order; unknown slugs are left out (validation reports them). */
export function relatedGuides(guide: Guide, all: readonly Guide[]): Guide[] {
  const bySlug = new Map(all.map((g) => [g.slug, g]));
  return guide.frontmatter.related.flatMap((slug) => bySlug.get(slug) ?? []);
}

const LANGUAGE_NAMES: Record<string, string> = { zh: "Chinese", en: "English" };

/** "Chinese" for "zh"; null when the source does not say. */
export function languageName(code: string | undefined): string | null {
  if (!code) return null;
  return LANGUAGE_NAMES[code] ?? code;
}
