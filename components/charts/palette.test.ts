import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { seriesColor, seriesHex } from "./palette";

describe("palette", () => {
  it("draws pages with the theme's variables", () => {
    expect(seriesColor(0)).toBe("var(--series-1)");
    expect(seriesColor(10)).toBe("var(--series-1)");
  });

  it("gives images drawn outside a page the dark theme's own hex values, never a CSS variable", () => {
    const css = fs.readFileSync(path.join(__dirname, "..", "..", "app", "globals.css"), "utf8");
    const dark = css.slice(css.indexOf(':root, :root[data-theme="dark"]'), css.indexOf("@media (prefers-color-scheme: light)"));
    for (let i = 0; i < 10; i++) {
      const declared = new RegExp(`--series-${i + 1}:\\s*(#[0-9a-f]{6})`, "i").exec(dark)?.[1];
      expect(seriesHex(i), `--series-${i + 1}`).toBe(declared);
    }
    expect(seriesHex(10)).toBe(seriesHex(0));
  });
});
