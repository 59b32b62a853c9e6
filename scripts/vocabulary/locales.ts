// Runs a tool as a user of each language would: LANGUAGE=<catalog language> picks the message
// catalog, LC_ALL=<a UTF-8 locale of that language> the numbers and times (gettext ignores
// LANGUAGE under the C locale, so both are set). Debian's locales-all package provides every locale
// (scripts/install-system-deps.sh installs it).
import { execFileSync, spawnSync } from "node:child_process";

let installed: string[] | null = null;

function installedLocales(): string[] {
  if (installed) return installed;
  try {
    installed = execFileSync("locale", ["-a"], { encoding: "utf8" }).split("\n").filter(Boolean);
  } catch {
    installed = [];
  }
  return installed;
}

function isUtf8(locale: string): boolean {
  const r = spawnSync("locale", ["charmap"], { encoding: "utf8", env: { ...process.env, LC_ALL: locale } });
  return r.status === 0 && /^UTF-8$/.test(r.stdout.trim()) && !/Cannot set/.test(r.stderr);
}

// Where a language's country code differs from its own code and sorting would pick another country.
const HOME_REGION: Record<string, string> = { ca: "ES", el: "GR", sv: "SE", sr: "RS", cs: "CZ", da: "DK", ja: "JP", ko: "KR", uk: "UA", vi: "VN", sl: "SI", et: "EE", be: "BY", kk: "KZ", eu: "ES", gl: "ES", ga: "IE", ms: "MY", ky: "KG", af: "ZA", fur: "IT", lg: "UG", ia: "FR", nb: "NO", nn: "NO", eo: "" };

/**
 * A UTF-8 locale for a catalog language ("de" → "de_DE.utf8", "pt_BR" → "pt_BR.utf8", "eo" →
 * "eo"), or null when none is installed. The country named like the language comes first.
 */
export function localeFor(lang: string): string | null {
  const all = installedLocales().filter((l) => !l.includes("@"));
  const base = (l: string) => l.replace(/\.(utf8|UTF-8)$/, "");
  const candidates = all.filter((l) => {
    const b = base(l);
    return lang.includes("_") ? b === lang : b === lang || b.startsWith(`${lang}_`);
  });
  const rank = (l: string) => {
    const b = base(l);
    const home = `${lang}_${HOME_REGION[lang] ?? lang.toUpperCase()}`;
    const region = lang.includes("_") ? 0 : b === home ? 0 : b === lang ? 1 : 2;
    return region * 2 + (/\.utf8$/i.test(l) ? 0 : 1);
  };
  for (const l of candidates.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b))) {
    if (/\.utf8$/i.test(l) || (!l.includes(".") && isUtf8(l))) return l;
  }
  return null;
}

/** The environment that makes a tool speak `lang`. */
export function localeEnv(lang: string, locale: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, LANGUAGE: lang, LC_ALL: locale, LANG: locale };
  // sysstat's colours and its ISO time switch would change the output of one run and not another.
  delete env.S_COLORS;
  delete env.S_TIME_FORMAT;
  env.S_COLORS = "never";
  return env;
}

export interface ToolRun {
  stdout: string;
  stderr: string;
  status: number | null;
}

export function runIn(lang: string, locale: string, argv: readonly string[]): ToolRun {
  const r = spawnSync(argv[0]!, argv.slice(1), { encoding: "utf8", env: localeEnv(lang, locale), timeout: 60_000 });
  return { stdout: r.stdout ?? "", stderr: r.stderr ?? "", status: r.status };
}
