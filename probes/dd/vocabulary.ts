// The words coreutils dd prints, in every language its message catalogs translate them into:
// read from vocabulary.generated.json (scripts/generate-tool-vocabulary.ts writes it from the
// installed coreutils.mo files; a test keeps it equal to them). Forms no installed catalog holds
// are named below, each with the implementation or release that prints it.
import generated from "./vocabulary.generated.json";

/** One language's words of dd, as scripts/generate-tool-vocabulary.ts writes them. */
export interface DdLanguage {
  records?: string[];
  copied?: string[];
  truncated?: string[];
  seconds?: string[];
  rate?: string[];
  infinity?: string;
}

const LANGUAGES: Record<string, DdLanguage> = generated.languages;

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The unit after a printf number: "%g s" → "s", "%s B/s" → "B/s". */
const unitOf = (format: string) => format.replace(/^%[^a-zA-Z%]*[a-zA-Z]\s*/, "").trim();

/**
 * Seconds as dd prints them: the catalogs' "%g s" (never translated by coreutils 9.1's catalogs),
 * and the named older forms: "с"/"c" of the Russian catalog of coreutils 8.2x ("4,17328 c"),
 * "秒" of older Chinese catalogs, busybox's "seconds".
 */
export const SECONDS_UNITS: readonly string[] = [
  ...new Set([...Object.values(LANGUAGES).flatMap((l) => (l.seconds ?? []).map(unitOf)), "seconds", "с", "c", "秒"]),
].sort((a, b) => b.length - a.length);

/**
 * What follows the byte prefix of a rate ("MB/s"): "/s" from the catalogs' "%s B/s", and the
 * Russian "/c" ("515 MB/c", coreutils 8.2x).
 */
export const PER_SECOND: readonly string[] = [
  ...new Set([...Object.values(LANGUAGES).flatMap((l) => (l.rate ?? []).map((r) => unitOf(r).replace(/^B/, ""))), "/c", "/с"]),
];

/** dd's rate when it measured no time ("Infinity B/s"), in every language. */
export const INFINITY_WORDS: readonly string[] = [...new Set(Object.values(LANGUAGES).flatMap((l) => (l.infinity ? [l.infinity] : [])))];

/** A catalog's printf format as a pattern: numbers for %<PRIdMAX>, anything for %s. */
function formatPattern(format: string): RegExp {
  const body = format
    .trim()
    .split(/(%<PRI[du]MAX>|%s)/)
    .map((part) => (part === "%s" ? ".+?" : part.startsWith("%<") ? "\\d+" : escape(part).replace(/\s+/g, "\\s+")))
    .join("");
  return new RegExp(body, "u");
}

const COPIED: { lang: string; re: RegExp }[] = Object.entries(LANGUAGES).flatMap(([lang, l]) => (l.copied ?? []).map((f) => ({ lang, re: formatPattern(f) })));

/**
 * The language of a coreutils transfer line ("de" for "… Bytes (…) kopiert, …"), "en" for the
 * untranslated one, null when no catalog's wording matches (an older release's translation).
 */
export function languageOfTransfer(line: string): string | null {
  if (line.length > 4096) return null;
  const english = COPIED.find((c) => c.lang === "en" && c.re.test(line));
  if (english) return "en";
  return COPIED.find((c) => c.re.test(line))?.lang ?? null;
}
