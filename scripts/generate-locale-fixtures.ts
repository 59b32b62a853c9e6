// Records what dd and sar print in every language they ship a message catalog for, with the real
// tools of this machine, as fixtures the parsers are tested on (probes/{dd,sar}/fixtures/locales/):
//   dd   LANGUAGE=<lang> LC_ALL=<locale> dd if=/dev/zero of=<temp file> bs=64K count=160 conv=fdatasync
//   sar  LANGUAGE=<lang> LC_ALL=<locale> sar -f probes/sar/fixtures/locales/data.sa -A
// data.sa is recorded once (`sar -o data.sa -A 1 2`; --record records it again), so every
// language prints the same numbers. C.txt is each tool's untranslated output, the reference.
//   npx tsx scripts/generate-locale-fixtures.ts [--record]
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { catalogLanguages } from "./generate-tool-vocabulary";
import { localeFor, runIn } from "./vocabulary/locales";

const ROOT = path.resolve(import.meta.dirname, "..");
export const DD_LOCALES = path.join(ROOT, "probes/dd/fixtures/locales");
export const SAR_LOCALES = path.join(ROOT, "probes/sar/fixtures/locales");
export const SAR_DATA = path.join(SAR_LOCALES, "data.sa");
/** 160 × 64 KiB: plural forms everywhere ("10485760 bytes"). */
export const DD_BYTES = 160 * 65536;

export const ddArgv = (target: string, bs = "64K", count = 160) => ["dd", "if=/dev/zero", `of=${target}`, `bs=${bs}`, `count=${count}`, "conv=fdatasync"];
export const sarArgv = (data: string) => ["sar", "-f", data, "-A"];

/** The catalog languages of a tool with the locale each runs under ("C" first, untranslated). */
export function languagesOf(domain: string): { lang: string; locale: string | null }[] {
  return [{ lang: "C", locale: "C" }, ...catalogLanguages(domain).map((lang) => ({ lang, locale: localeFor(lang) }))];
}

function main(): void {
  const record = process.argv.includes("--record");
  const missing: string[] = [];
  const tmp = mkdtempSync(path.join(tmpdir(), "probebook-locales-"));
  try {
    mkdirSync(DD_LOCALES, { recursive: true });
    mkdirSync(SAR_LOCALES, { recursive: true });
    for (const f of readdirSync(DD_LOCALES)) if (f.endsWith(".txt")) rmSync(path.join(DD_LOCALES, f));
    for (const { lang, locale } of languagesOf("coreutils")) {
      if (!locale) {
        missing.push(`dd ${lang}`);
        continue;
      }
      const r = runIn(lang === "C" ? "" : lang, locale, ddArgv(path.join(tmp, "dd.out")));
      if (r.status !== 0) throw new Error(`dd under ${locale} exited with ${r.status}: ${r.stderr}`);
      writeFileSync(path.join(DD_LOCALES, `${lang}.txt`), r.stderr);
    }
    if (record || !existsSync(SAR_DATA)) {
      rmSync(SAR_DATA, { force: true });
      execFileSync("sar", ["-o", SAR_DATA, "-A", "1", "2"], { stdio: "ignore", env: { ...process.env, LC_ALL: "C" } });
    }
    for (const f of readdirSync(SAR_LOCALES)) if (f.endsWith(".txt")) rmSync(path.join(SAR_LOCALES, f));
    for (const { lang, locale } of languagesOf("sysstat")) {
      if (!locale) {
        missing.push(`sar ${lang}`);
        continue;
      }
      const r = runIn(lang === "C" ? "" : lang, locale, sarArgv(SAR_DATA));
      if (r.status !== 0) throw new Error(`sar under ${locale} exited with ${r.status}: ${r.stderr}`);
      writeFileSync(path.join(SAR_LOCALES, `${lang}.txt`), r.stdout);
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  console.log(`wrote ${path.relative(ROOT, DD_LOCALES)} and ${path.relative(ROOT, SAR_LOCALES)}`);
  if (missing.length > 0) console.log(`no UTF-8 locale installed for: ${missing.join(", ")} (install locales-all)`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) main();
