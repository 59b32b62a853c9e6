// dd in every language coreutils ships a catalog for: the committed outputs of
// scripts/generate-locale-fixtures.ts, and the real dd of the machine running the tests.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DD_BYTES, DD_LOCALES, ddArgv, languagesOf } from "../../scripts/generate-locale-fixtures";
import { installedVersions } from "../../scripts/generate-tool-vocabulary";
import { runIn } from "../../scripts/vocabulary/locales";
import { parseLocaleNumber } from "../core/number";
import { expectOk, one } from "../core/testing";
import { parseDd } from "./parse";
import generated from "./vocabulary.generated.json";

const TRANSLATED: Record<string, { copied?: string[]; infinity?: string }> = generated.languages;

/** The figures read, checked against the summary line itself: its bytes and its seconds as printed. */
function read(stderr: string, bytes: number, lang: string) {
  const r = expectOk(parseDd(stderr));
  const summary = stderr.trimEnd().split("\n").pop() ?? "";
  const seconds = one(r.measurements, "seconds").value;
  expect(one(r.measurements, "bytes").value).toBe(bytes);
  expect(seconds).toBeGreaterThan(0);
  expect(seconds).toBeLessThan(60);
  // The seconds are one of the line's printed numbers (%g: "0,0138455" with a decimal comma, "5e-05").
  const printed = [...summary.matchAll(/\d[\d.,]*(?:e[+-]\d+)?/g)].map((m) => parseLocaleNumber(m[0]));
  expect(printed, `${seconds} s in "${summary}"`).toContain(seconds);
  expect(one(r.measurements, "throughput").value).toBeCloseTo(bytes / seconds, 3);
  expect(r.warnings).toEqual([]);
  const language = lang.split(/[_.]/)[0] === "C" ? "C" : lang;
  expect(r.format).toBe(TRANSLATED[language]?.copied && language !== "C" ? `coreutils dd (translated: ${language})` : "coreutils dd");
  return r;
}

describe("dd fixtures in every catalog language (probes/dd/fixtures/locales)", () => {
  const files = readdirSync(DD_LOCALES).filter((f) => f.endsWith(".txt"));

  it("has one per language coreutils translates (and C)", () => {
    expect(files.length).toBeGreaterThanOrEqual(40);
    expect(files).toContain("C.txt");
  });

  it.each(files)("%s: bytes, seconds and throughput", (file) => {
    read(readFileSync(path.join(DD_LOCALES, file), "utf8"), DD_BYTES, file.replace(/\.txt$/, ""));
  });
});

describe("the real dd under every installed catalog language", () => {
  const versions = installedVersions();
  const dir = mkdtempSync(path.join(tmpdir(), "probebook-dd-locales-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  for (const { lang, locale } of languagesOf("coreutils")) {
    it(`${lang} (${locale ?? "no locale installed"}): 1 byte, 3 bytes and ${DD_BYTES} bytes`, ({ skip }) => {
      if (versions.coreutils === "not installed") skip("dd is not installed (scripts/install-system-deps.sh)");
      if (!locale) skip(`no UTF-8 locale for "${lang}" is installed (Debian: locales-all)`);
      const target = path.join(dir, `${lang}.out`);
      for (const [bs, count, bytes] of [["1", 1, 1], ["3", 1, 3], ["64K", 160, DD_BYTES]] as const) {
        const run = runIn(lang === "C" ? "" : lang, locale!, ddArgv(target, bs, count));
        expect(run.status, run.stderr).toBe(0);
        read(run.stderr, bytes, lang);
      }
    });
  }
});
