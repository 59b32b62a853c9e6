import { describe, expect, it } from "vitest";
import { expectError, expectOk } from "../core/testing";
import { parseSar } from "./parse";
import { extremeOf, labelKind, languageOfLabel } from "./vocabulary";

describe("sar's words from sysstat's catalogs", () => {
  it.each([
    ["Average:", "average", null],
    ["Durchschn.:", "average", "de"],
    ["Moyenne\u00a0:", "average", "fr"],
    ["平均値:", "average", "ja"],
    ["평균값:", "average", "ko"],
    ["Media:", "average", "es/gl/it/ro"],
    ["Zusammenfassung:", "summary", "de"],
    ["Минимум:", "min", "ru"],
    ["最大：", "max", "zh_CN"],
    ["Maksimum", "max", "hr/id"],
  ])("%s is a %s label (%s)", (label, kind, language) => {
    expect(labelKind(label)).toBe(kind);
    expect(languageOfLabel(label)).toBe(language);
  });

  it("knows no label that is not sar's", () => {
    expect(labelKind("Total:")).toBeNull();
    expect(extremeOf("Average:")).toBeNull();
  });

  it("reads -x extremes whose label has no colon (Croatian) as min/max, not averages", () => {
    const text = "12:00:00        CPU     %user     %idle\n12:00:01        all      1.00     99.00\nMinimum         all      1.00     99.00\nMaksimum        all      2.00     98.00\n";
    const r = expectOk(parseSar(text));
    expect(r.measurements.filter((m) => m.dims.stat === "max").map((m) => m.value)).toEqual([2, 98]);
    expect(r.measurements.some((m) => m.dims.time === "average")).toBe(false);
  });

  it("reports sar's errors in the catalogs' languages as sar failing", () => {
    const de = "/var/log/sysstat/sa21 kann nicht geöffnet werden: Datei oder Verzeichnis nicht gefunden\nBitte prüfen Sie, ob die Datensammlung aktiviert ist\n";
    expect(expectError(parseSar(de))).toMatch(/^sar failed: \/var\/log\/sysstat\/sa21 kann nicht geöffnet werden/);
    const fr = "Impossible d'ouvrir /var/log/sa/sa02 : Aucun fichier ou dossier de ce type\n";
    expect(expectError(parseSar(fr))).toMatch(/^sar failed: Impossible d'ouvrir/);
  });
});
