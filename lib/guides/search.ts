/**
 * Guide search, shared by the server (which builds the documents at build time) and the
 * browser (which indexes them with MiniSearch and searches as the user types).
 *
 * Tuning vocabulary is full of compound identifiers — `vm.zone_reclaim_mode`, `data=writeback`,
 * `/sys/kernel/mm/transparent_hugepage/enabled` — that MiniSearch's default tokenizer would
 * split at every `.`, `_`, `/` and `=`. We index each such token whole AND as its parts, so
 * `zone_reclaim` (a prefix of the whole token), `reclaim` (a part) and `vm.dirty_ratio`
 * (an exact whole token) all find the right guide.
 */
import MiniSearch, { type Query, type SearchResult } from "minisearch";

/** What the server hands the search box: plain, serialisable data. */
export interface GuideSearchDocument {
  /** The guide slug. */
  id: string;
  title: string;
  summary: string;
  /** Tags joined by spaces. */
  tags: string;
  /** Every tunable's name, recommended value and reason, joined. */
  tunables: string;
  /** The body as plain text (see mdxToPlainText). */
  text: string;
}

export const SEARCH_FIELDS = ["title", "summary", "tags", "tunables", "text"] as const;

/** Characters that end a token. `.`, `_`, `-`, `/`, `=`, `+` and `:` stay inside tokens. */
const TOKEN_BREAK = /[\s,;!?()[\]{}<>"'`*|\\~^$#@&%“”‘’«»…、，。：；（）]+/u;
/** Separators inside a compound token, coarse first: paths, dotted names, option=value. */
const COARSE_SEPARATORS = /[./=:+]+/;
/** Then word separators inside each coarse segment: zone_reclaim_mode, read-only. */
const FINE_SEPARATORS = /[_-]+/;
/** Punctuation that only decorates a token's ends ("noatime." at the end of a sentence). */
const EDGE_PUNCTUATION = /^[./=:+_-]+|[./=:+_-]+$/g;

function pushUnique(out: string[], seen: Set<string>, term: string) {
  if (term && !seen.has(term)) {
    seen.add(term);
    out.push(term);
  }
}

/**
 * Splits text into terms: each compound token whole, then its coarse segments
 * (`proc`, `sys`, `vm`, `zone_reclaim_mode`), then the words inside them (`zone`, `reclaim`, `mode`).
 * The whole token comes first so boostTerm can favour it in queries.
 */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.split(TOKEN_BREAK)) {
    const token = raw.replace(EDGE_PUNCTUATION, "");
    if (!token) continue;
    const seen = new Set<string>();
    const terms: string[] = [];
    pushUnique(terms, seen, token);
    const coarse = token.split(COARSE_SEPARATORS).filter(Boolean);
    for (const segment of coarse) {
      pushUnique(terms, seen, segment);
    }
    for (const segment of coarse) {
      for (const word of segment.split(FINE_SEPARATORS)) pushUnique(terms, seen, word);
    }
    out.push(...terms);
  }
  return out;
}

/** Lower-cases terms and drops single letters, which match nearly everything. */
export function processTerm(term: string): string | null {
  const t = term.toLowerCase();
  if (t.length < 2 && !/\d/.test(t)) return null;
  return t;
}

/** A query term that is a compound identifier is what the user really means; weigh it up. */
function boostTerm(term: string): number {
  return COARSE_SEPARATORS.test(term) || FINE_SEPARATORS.test(term) ? 2 : 1;
}

export function createGuideIndex(documents: readonly GuideSearchDocument[]): MiniSearch<GuideSearchDocument> {
  const index = new MiniSearch<GuideSearchDocument>({
    fields: [...SEARCH_FIELDS],
    storeFields: [],
    tokenize,
    processTerm,
    searchOptions: {
      boost: { title: 4, tunables: 3, tags: 2.5, summary: 2, text: 1 },
      boostTerm,
      prefix: true,
      // Typos only for words long enough that one edit does not turn them into another word.
      fuzzy: (term) => (term.length >= 5 ? 0.2 : false),
      maxFuzzy: 2,
    },
  });
  index.addAll(documents as GuideSearchDocument[]);
  return index;
}

/**
 * Every word the user typed must match (AND); within one word, the whole compound token or any
 * of its parts may match (OR), so `zone_reclaim numa` needs both `zone_reclaim…` and `numa`.
 */
export function buildQuery(input: string): Query | null {
  const words = input
    .trim()
    .split(/\s+/)
    .filter((w) => tokenize(w).some((t) => processTerm(t) !== null));
  if (words.length === 0) return null;
  return { combineWith: "AND", queries: words.map((w) => ({ combineWith: "OR", queries: [w] })) };
}

export function searchGuides(index: MiniSearch<GuideSearchDocument>, input: string): SearchResult[] {
  const query = buildQuery(input);
  return query ? index.search(query) : [];
}

export interface SnippetPart {
  text: string;
  match: boolean;
}

export interface Snippet {
  parts: SnippetPart[];
  /** True when the snippet starts or ends inside the text (show an ellipsis). */
  clippedStart: boolean;
  clippedEnd: boolean;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * A window of `text` around the first occurrence of the most specific matched term (longest
 * first, at a word start), with every matched term marked. Null when no term occurs in the text
 * (the match was in the title, tags or tunables only).
 */
export function makeSnippet(text: string, terms: readonly string[], maxLength = 200): Snippet | null {
  const candidates = [...new Set(terms.map((t) => t.toLowerCase()))]
    .filter((t) => t.length > 1)
    .sort((a, b) => b.length - a.length);
  if (candidates.length === 0) return null;
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])(?:${candidates.map(escapeRegExp).join("|")})`, "giu");

  let first = -1;
  for (const term of candidates) {
    const m = new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(term)}`, "iu").exec(text);
    if (m) {
      first = m.index;
      break;
    }
  }
  if (first < 0) return null;

  let start = Math.max(0, first - Math.floor(maxLength / 3));
  if (start > 0) {
    const space = text.indexOf(" ", start);
    if (space >= 0 && space < first) start = space + 1;
  }
  let end = Math.min(text.length, start + maxLength);
  if (end < text.length) {
    const space = text.lastIndexOf(" ", end);
    if (space > first) end = space;
  }
  const window = text.slice(start, end);

  const parts: SnippetPart[] = [];
  let last = 0;
  for (const m of window.matchAll(pattern)) {
    if (m.index > last) parts.push({ text: window.slice(last, m.index), match: false });
    parts.push({ text: m[0], match: true });
    last = m.index + m[0].length;
  }
  if (last < window.length) parts.push({ text: window.slice(last), match: false });
  return { parts, clippedStart: start > 0, clippedEnd: end < text.length };
}
