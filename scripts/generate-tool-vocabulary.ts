// Writes the words sar and dd print in every language their message catalogs translate, so the
// parsers look them up instead of keeping lists typed by hand:
//   probes/sar/vocabulary.generated.json  sysstat's "Average:", "Summary:", "Minimum:", "Maximum:"
//                                         and the error messages sar ends a report with
//   probes/dd/vocabulary.generated.json   coreutils' "records in/out", "bytes (…) copied, …" in
//                                         their plural forms, "%g s", "%s B/s", "Infinity"
// Inputs: the installed catalogs (/usr/share/locale/*/LC_MESSAGES/{sysstat,coreutils}.mo) and
// probes/sar/vocabulary.releases.json, the same msgids read once from the nls/*.po files of every
// tagged sysstat release (older and newer translations than the installed one: `--sysstat-git
// <git dir of github.com/sysstat/sysstat>` refreshes it). A test regenerates both outputs from the
// installed catalogs and fails when the committed files differ.
//   npx tsx scripts/generate-tool-vocabulary.ts [--check] [--sysstat-git DIR]
import type { DdLanguage } from "../probes/dd/vocabulary";
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { readMo, readPo, type Catalog } from "./vocabulary/catalog";

const ROOT = path.resolve(import.meta.dirname, "..");
export const LOCALE_DIR = "/usr/share/locale";
export const SAR_OUT = path.join(ROOT, "probes/sar/vocabulary.generated.json");
export const DD_OUT = path.join(ROOT, "probes/dd/vocabulary.generated.json");
export const SAR_RELEASES = path.join(ROOT, "probes/sar/vocabulary.releases.json");

/** The row labels sar prints instead of a time (sar.c, pr_stats.c of sysstat). */
export const SAR_LABELS = { "Average:": "average", "Summary:": "summary", "Minimum:": "min", "Maximum:": "max" } as const;
type LabelKind = (typeof SAR_LABELS)[keyof typeof SAR_LABELS];
/** sar's messages when it has no report to print (sa_common.c, sar.c). */
const SAR_ERRORS = [
  "Cannot open %s: %s\n",
  "Invalid system activity file: %s\n",
  "Requested activities not available\n",
  "Requested activities not available in file %s\n",
  "Please check if data collecting is enabled\n",
  "End of system activity file unexpected\n",
  "Current sysstat version cannot read the format of this file (%#x)\n",
];

/** dd.c's messages (coreutils 9.x; 8.x used %<PRIuMAX> and "%s" sizes in the same wording). */
const DD_MSGIDS = {
  records: "%<PRIdMAX>+%<PRIdMAX> records in\n%<PRIdMAX>+%<PRIdMAX> records out\n",
  copiedPlain: "%<PRIdMAX> byte copied, %s, %s",
  copiedOneSize: "%<PRIdMAX> bytes (%s) copied, %s, %s",
  copiedTwoSizes: "%<PRIdMAX> bytes (%s, %s) copied, %s, %s",
  truncated: "%<PRIdMAX> truncated record\n",
  seconds: "%g s",
  secondsRounded: "%.0f s",
  rate: "%s B/s",
  infinity: "Infinity",
} as const;

export interface SarVocabulary {
  generatedBy: string;
  catalogs: string;
  /** Label → what the row holds and which languages print it. */
  labels: Record<string, { kind: LabelKind; languages: string[] }>;
  /** Language → sar's error messages (printf formats) in it. */
  errors: Record<string, string[]>;
}


export interface DdVocabulary {
  generatedBy: string;
  catalogs: string;
  languages: Record<string, DdLanguage>;
}

export interface SarReleases {
  from: string;
  /** msgid → translation → languages that printed it in some release. */
  labels: Record<string, Record<string, string[]>>;
}

const GENERATED_BY = "scripts/generate-tool-vocabulary.ts (do not edit; regenerate)";

function toolVersion(argv: string[], re: RegExp): string {
  try {
    const out = execFileSync(argv[0]!, argv.slice(1), { encoding: "utf8", env: { ...process.env, LC_ALL: "C", LANGUAGE: "" }, stdio: ["ignore", "pipe", "pipe"] });
    return re.exec(out)?.[1] ?? "unknown";
  } catch {
    return "not installed";
  }
}

export function installedVersions(): { sysstat: string; coreutils: string } {
  return {
    sysstat: toolVersion(["sar", "-V"], /sysstat version (\S+)/),
    coreutils: toolVersion(["dd", "--version"], /coreutils\)? (\S+)/),
  };
}

/** Languages with an installed catalog of `domain`, sorted. */
export function catalogLanguages(domain: string, dir = LOCALE_DIR): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((lang) => existsSync(path.join(dir, lang, "LC_MESSAGES", `${domain}.mo`)))
    .sort();
}

function installed(domain: string, dir: string): Map<string, Catalog> {
  return new Map(catalogLanguages(domain, dir).map((lang) => [lang, readMo(path.join(dir, lang, "LC_MESSAGES", `${domain}.mo`))]));
}

const sorted = <T>(record: Record<string, T>): Record<string, T> => Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

export function sarVocabulary(dir = LOCALE_DIR, releases: SarReleases = readReleases()): SarVocabulary {
  const labels: SarVocabulary["labels"] = {};
  const add = (raw: string, kind: LabelKind, lang: string) => {
    // sar pads the label to a column ("%-11s"): a translation's own trailing blanks add nothing.
    const label = raw.trim();
    if (label === "") return;
    const entry = (labels[label] ??= { kind, languages: [] });
    // A word two msgids share keeps the first kind (averages before min/max): none does today.
    if (!entry.languages.includes(lang)) entry.languages.push(lang);
  };
  for (const [msgid, kind] of Object.entries(SAR_LABELS)) add(msgid, kind, "en");
  const errors: SarVocabulary["errors"] = { en: SAR_ERRORS.map((e) => e.trimEnd()) };
  const catalogs = installed("sysstat", dir);
  for (const [lang, catalog] of catalogs) {
    for (const [msgid, kind] of Object.entries(SAR_LABELS)) {
      for (const s of catalog.messages.get(msgid)?.msgstr ?? []) add(s, kind, lang);
    }
    const translated = SAR_ERRORS.flatMap((e) => catalog.messages.get(e)?.msgstr ?? []).map((s) => s.trim()).filter(Boolean);
    if (translated.length > 0) errors[lang] = [...new Set(translated)];
  }
  for (const [msgid, translations] of Object.entries(releases.labels)) {
    const kind = SAR_LABELS[msgid as keyof typeof SAR_LABELS];
    if (!kind) continue;
    for (const [label, langs] of Object.entries(translations)) for (const lang of langs) add(label, kind, lang);
  }
  for (const entry of Object.values(labels)) entry.languages.sort();
  const v = installedVersions().sysstat;
  return {
    generatedBy: GENERATED_BY,
    catalogs: `sysstat ${v}: ${catalogs.size} installed catalogs; ${releases.from}`,
    labels: sorted(labels),
    errors: sorted(errors),
  };
}

export function ddVocabulary(dir = LOCALE_DIR): DdVocabulary {
  const english: DdLanguage = {
    records: [DD_MSGIDS.records],
    copied: [DD_MSGIDS.copiedPlain, "%<PRIdMAX> bytes copied, %s, %s", DD_MSGIDS.copiedOneSize, DD_MSGIDS.copiedTwoSizes],
    truncated: [DD_MSGIDS.truncated, "%<PRIdMAX> truncated records\n"],
    seconds: [DD_MSGIDS.seconds, DD_MSGIDS.secondsRounded],
    rate: [DD_MSGIDS.rate],
    infinity: DD_MSGIDS.infinity,
  };
  const languages: Record<string, DdLanguage> = { en: english };
  const catalogs = installed("coreutils", dir);
  for (const [lang, catalog] of catalogs) {
    const forms = (...ids: string[]) => {
      const all = ids.flatMap((id) => catalog.messages.get(id)?.msgstr ?? []).filter(Boolean);
      return all.length > 0 ? [...new Set(all)] : undefined;
    };
    const entry: DdLanguage = {
      records: forms(DD_MSGIDS.records),
      copied: forms(DD_MSGIDS.copiedPlain, DD_MSGIDS.copiedOneSize, DD_MSGIDS.copiedTwoSizes),
      truncated: forms(DD_MSGIDS.truncated),
      seconds: forms(DD_MSGIDS.seconds, DD_MSGIDS.secondsRounded),
      rate: forms(DD_MSGIDS.rate),
      infinity: catalog.messages.get(DD_MSGIDS.infinity)?.msgstr[0],
    };
    const kept = Object.fromEntries(Object.entries(entry).filter(([, value]) => value !== undefined)) as DdLanguage;
    if (Object.keys(kept).length > 0) languages[lang] = kept;
  }
  const v = installedVersions().coreutils;
  return { generatedBy: GENERATED_BY, catalogs: `coreutils ${v}: ${catalogs.size} installed catalogs`, languages: sorted(languages) };
}

export function readReleases(file = SAR_RELEASES): SarReleases {
  if (!existsSync(file)) return { from: "no release .po files read", labels: {} };
  return JSON.parse(readFileSync(file, "utf8")) as SarReleases;
}

/** The label msgids of nls/*.po at every tag of a sysstat git directory (each blob read once). */
export function releasesFromGit(gitDir: string): SarReleases {
  const git = (...args: string[]) => execFileSync("git", ["--git-dir", gitDir, ...args], { encoding: "utf8", maxBuffer: 1 << 28 });
  const tags = git("tag", "--list", "v*").split("\n").filter(Boolean);
  const blobs = new Map<string, string>();
  for (const tag of tags) {
    for (const line of git("ls-tree", tag, "nls/").split("\n")) {
      const m = /^\d+ blob ([0-9a-f]+)\tnls\/([\w@]+)\.po$/.exec(line);
      if (m) blobs.set(m[1]!, m[2]!);
    }
  }
  const labels: SarReleases["labels"] = {};
  for (const [blob, lang] of blobs) {
    const catalog = readPo(execFileSync("git", ["--git-dir", gitDir, "cat-file", "blob", blob], { maxBuffer: 1 << 26 }));
    for (const msgid of Object.keys(SAR_LABELS)) {
      for (const s of catalog.messages.get(msgid)?.msgstr ?? []) {
        if (!s) continue;
        const langs = ((labels[msgid] ??= {})[s] ??= []);
        if (!langs.includes(lang)) langs.push(lang);
      }
    }
  }
  for (const t of Object.values(labels)) for (const langs of Object.values(t)) langs.sort();
  const versions = tags.map((t) => t.replace(/^v/, "")).sort((a, b) => a.localeCompare(b, "en", { numeric: true }));
  return {
    from: `nls/*.po of sysstat's ${tags.length} tagged releases ${versions[0]}–${versions[versions.length - 1]}`,
    labels: Object.fromEntries(Object.entries(labels).sort().map(([k, v]) => [k, sorted(v)])),
  };
}

export const asJson = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

function main(): void {
  const args = process.argv.slice(2);
  const gitAt = args.indexOf("--sysstat-git");
  if (gitAt >= 0) {
    const dir = args[gitAt + 1];
    if (!dir) throw new Error("--sysstat-git needs the git directory of sysstat's repository");
    writeFileSync(SAR_RELEASES, asJson(releasesFromGit(dir)));
    console.log(`wrote ${path.relative(ROOT, SAR_RELEASES)}`);
  }
  const outputs: [string, unknown][] = [
    [SAR_OUT, sarVocabulary()],
    [DD_OUT, ddVocabulary()],
  ];
  let stale = 0;
  for (const [file, value] of outputs) {
    const text = asJson(value);
    const same = existsSync(file) && readFileSync(file, "utf8") === text;
    if (args.includes("--check")) {
      if (!same) stale++;
      console.log(`${path.relative(ROOT, file)}: ${same ? "up to date" : "differs from the installed catalogs"}`);
    } else {
      writeFileSync(file, text);
      console.log(`wrote ${path.relative(ROOT, file)}`);
    }
  }
  if (stale > 0) process.exit(1);
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) main();
