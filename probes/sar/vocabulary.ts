// The words sar prints in every language sysstat's message catalogs translate them into: the row
// labels it prints instead of a time ("Average:", -x's "Summary:", "Minimum:", "Maximum:") and
// the errors it ends a report with. Read from vocabulary.generated.json, which
// scripts/generate-tool-vocabulary.ts writes from the installed sysstat.mo files and the nls/*.po
// files of sysstat's tagged releases (a test keeps it equal to the installed catalogs).
// "LINUX RESTART" and the "Linux … (host)" banner are printed untranslated (sar.c prints them
// with printf, not gettext), so parse-text.ts matches them as they are.
import generated from "./vocabulary.generated.json";

export type LabelKind = "average" | "summary" | "min" | "max";

const LABELS: Record<string, { kind: string; languages: string[] }> = generated.labels;
const ERRORS: Record<string, string[]> = generated.errors;

// Labels compare without blanks, colons and case: "Moyenne :" with a no-break space, "Moyenne :"
// and "moyenne:" are one label; Croatian "Minimum" has no colon at all.
const key = (label: string) => label.replace(/[\s:：]/g, "").toLowerCase();

const BY_KEY = new Map<string, { kind: LabelKind; languages: string[] }>();
for (const [label, entry] of Object.entries(LABELS)) {
  const k = key(label);
  const seen = BY_KEY.get(k);
  const languages = [...new Set([...(seen?.languages ?? []), ...entry.languages])].sort();
  BY_KEY.set(k, { kind: (seen?.kind ?? entry.kind) as LabelKind, languages });
}

/** What a row labelled `label` holds, or null when no catalog prints that label. */
export function labelKind(label: string): LabelKind | null {
  if (label.length > 64) return null;
  return BY_KEY.get(key(label))?.kind ?? null;
}

/** The catalog languages that print `label` ("de", "es/gl/it/ro"), null for English or unknown. */
export function languageOfLabel(label: string): string | null {
  const languages = BY_KEY.get(key(label))?.languages.filter((l) => l !== "en") ?? [];
  return languages.length > 0 ? languages.join("/") : null;
}

/** "min" or "max" for a -x summary row label, null for an average (or any other) label. */
export function extremeOf(label: string): "min" | "max" | null {
  const kind = labelKind(label);
  return kind === "min" || kind === "max" ? kind : null;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

const PLACEHOLDER = /%[#\d.]*[sdxu]/;

/** One printf format as a line pattern: "%s" and "%#x" stand for anything, blanks for any blanks. */
function formatPattern(format: string): RegExp {
  const body = format
    .split(/(%[#\d.]*[sdxu])/)
    .map((part, i) => (i % 2 === 1 ? ".+?" : escape(part).replace(/\s+/g, "\\s+")))
    .join("");
  return new RegExp(`^${body}`, "iu");
}

const WORDS = /[^\p{L}]+/u;

// sar's own errors in every catalog language, each under its longest word (a letter run): a line
// is tested only against the messages whose word it contains. A translation that is mostly
// placeholders would match any line: such a one is left out.
const ERROR_FORMS = new Map<string, RegExp[]>();
for (const format of new Set(Object.values(ERRORS).flat())) {
  const fixed = format.replace(new RegExp(PLACEHOLDER, "g"), " ");
  if (fixed.trim().length < 8) continue;
  const word = fixed.toLowerCase().split(WORDS).sort((a, b) => b.length - a.length)[0] ?? "";
  if (word.length < 4) continue;
  ERROR_FORMS.set(word, [...(ERROR_FORMS.get(word) ?? []), formatPattern(format)]);
}

// The English messages, tested on every line (as sar prints them without a catalog).
const ENGLISH_ERROR_RE = /^(?:Cannot open|Invalid system activity file|Requested activities not available|Please check if data collecting|End of system activity file unexpected|Current sysstat version cannot read|Usage: sar|sar: )/i;

/**
 * Whether a line is one of sar's own errors: a report that is only these is sar failing, not
 * foreign text. The translations are looked up only when `translated` (the caller's first lines:
 * sar prints its errors before anything else), which keeps the cost off every line of a long report.
 */
export function isSarError(line: string, translated = true): boolean {
  if (ENGLISH_ERROR_RE.test(line)) return true;
  if (!translated || line.length > 512) return false;
  for (const word of new Set(line.toLowerCase().split(WORDS))) {
    const forms = word.length >= 4 ? ERROR_FORMS.get(word) : undefined;
    if (forms?.some((re) => re.test(line))) return true;
  }
  return false;
}
