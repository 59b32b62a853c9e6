// The committed vocabularies must be what the generator makes of the installed catalogs: a parser
// never looks up a word list that drifted from the tools' own translations.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { readMo } from "./vocabulary/catalog";
import { asJson, catalogLanguages, ddVocabulary, DD_OUT, installedVersions, LOCALE_DIR, SAR_OUT, sarVocabulary } from "./generate-tool-vocabulary";

const committed = (file: string) => JSON.parse(readFileSync(file, "utf8")) as { catalogs: string };

describe("the tools' vocabulary (scripts/generate-tool-vocabulary.ts)", () => {
  const versions = installedVersions();
  const sar = committed(SAR_OUT);
  const dd = committed(DD_OUT);

  const cases = [
    ["sysstat", SAR_OUT, sar.catalogs, versions.sysstat, () => sarVocabulary()],
    ["coreutils", DD_OUT, dd.catalogs, versions.coreutils, () => ddVocabulary()],
  ] as const;
  for (const [tool, file, catalogs, version, generate] of cases) it(`${tool}: the committed file equals the one generated from this machine's catalogs`, ({ skip }) => {
    // Made from another release's catalogs (a machine with another distribution): nothing to compare.
    if (!catalogs.startsWith(`${tool} ${version}:`)) skip(`${tool} ${version} is installed; the committed file was made from "${catalogs}"`);
    expect(catalogLanguages(tool).length, `installed ${tool}.mo files`).toBeGreaterThan(20);
    expect(asJson(generate()), `${file}: run npx tsx scripts/generate-tool-vocabulary.ts`).toBe(readFileSync(file, "utf8"));
  });

  it("decodes the system-dependent messages (%<PRIdMAX>) that gettext-parser skips", ({ skip }) => {
    if (!catalogLanguages("coreutils").includes("de")) skip("no German coreutils catalog installed");
    const de = readMo(`${LOCALE_DIR}/de/LC_MESSAGES/coreutils.mo`).messages;
    expect(de.get("%<PRIdMAX>+%<PRIdMAX> records in\n%<PRIdMAX>+%<PRIdMAX> records out\n")?.msgstr).toEqual([
      "%<PRIdMAX>+%<PRIdMAX> Datensätze ein\n%<PRIdMAX>+%<PRIdMAX> Datensätze aus\n",
    ]);
    expect(de.get("%<PRIdMAX> byte copied, %s, %s")).toMatchObject({ plural: "%<PRIdMAX> bytes copied, %s, %s", msgstr: ["%<PRIdMAX> Byte kopiert, %s, %s", "%<PRIdMAX> Bytes kopiert, %s, %s"] });
    // An ordinary message, read by gettext-parser itself.
    expect(de.get("Infinity")?.msgstr).toEqual(["Unendlich"]);
  });
});
