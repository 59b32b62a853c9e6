// sar in every language sysstat ships a catalog for, printing one recorded data file: the committed
// outputs of scripts/generate-locale-fixtures.ts, and the real sar of the machine running the
// tests. The same file gives the same numbers in every language, so each language's measurements
// must equal the untranslated (C) ones.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { languagesOf, SAR_DATA, SAR_LOCALES, sarArgv } from "../../scripts/generate-locale-fixtures";
import { installedVersions } from "../../scripts/generate-tool-vocabulary";
import { runIn } from "../../scripts/vocabulary/locales";
import { expectOk } from "../core/testing";
import type { Measurement } from "../core/types";
import { parseSar } from "./parse";

/** Each measurement without its time (nb_NO prints no seconds): metric, other dims and value. */
const fingerprint = (ms: readonly Measurement[]) =>
  ms
    .map((m) => {
      const { time, ...dims } = m.dims;
      const when = time === "average" ? "average" : "sample";
      return `${m.metric} ${when} ${JSON.stringify(Object.entries(dims).sort())} = ${m.value}`;
    })
    .sort();

function check(text: string, lang: string, reference: readonly Measurement[]): void {
  const r = expectOk(parseSar(text));
  expect(r.warnings).toEqual([]);
  const averages = r.measurements.filter((m) => m.dims.time === "average");
  // Every table's Average rows were read, and they are numbers.
  expect(averages.length).toBe(reference.filter((m) => m.dims.time === "average").length);
  expect(averages.length).toBeGreaterThan(100);
  expect(averages.every((m) => Number.isFinite(m.value))).toBe(true);
  expect(averages.find((m) => m.metric === "%idle" && m.dims.cpu === "all")?.value).toBe(
    reference.find((m) => m.metric === "%idle" && m.dims.cpu === "all" && m.dims.time === "average")?.value,
  );
  expect(fingerprint(r.measurements)).toEqual(fingerprint(reference));
  if (lang !== "C") {
    // The format names the language its "Average:" label is in (languages sharing a word: "es/gl/it/ro").
    const languages = /^sar text \(([^,)]+)/.exec(r.format ?? "")?.[1]?.split("/") ?? [];
    expect(languages, r.format ?? "").toContain(lang);
  }
}

describe("sar fixtures in every catalog language (probes/sar/fixtures/locales)", () => {
  const files = readdirSync(SAR_LOCALES).filter((f) => f.endsWith(".txt"));
  const reference = expectOk(parseSar(readFileSync(path.join(SAR_LOCALES, "C.txt"), "utf8"))).measurements;

  it("has one per language sysstat translates (and C)", () => {
    expect(files.length).toBeGreaterThanOrEqual(35);
    expect(reference.length).toBeGreaterThan(1000);
  });

  it.each(files)("%s: the same measurements as C, averages numeric", (file) => {
    check(readFileSync(path.join(SAR_LOCALES, file), "utf8"), file.replace(/\.txt$/, ""), reference);
  });
});

describe("the real sar under every installed catalog language (sar -f data.sa -A)", () => {
  const versions = installedVersions();
  let reference: Measurement[] | null = null;
  const referenceRun = () => {
    if (reference) return reference;
    const run = runIn("", "C", sarArgv(SAR_DATA));
    expect(run.status, run.stderr).toBe(0);
    reference = expectOk(parseSar(run.stdout)).measurements;
    return reference;
  };

  for (const { lang, locale } of languagesOf("sysstat")) {
    it(`${lang} (${locale ?? "no locale installed"})`, ({ skip }) => {
      if (versions.sysstat === "not installed") skip("sar is not installed (scripts/install-system-deps.sh)");
      if (!locale) skip(`no UTF-8 locale for "${lang}" is installed (Debian: locales-all)`);
      const run = runIn(lang === "C" ? "" : lang, locale!, sarArgv(SAR_DATA));
      expect(run.status, run.stderr).toBe(0);
      check(run.stdout, lang, referenceRun());
    });
  }
});
