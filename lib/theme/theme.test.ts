import { describe, expect, it } from "vitest";
import { THEME_STORAGE_KEY, applyThemeScript, readTheme } from "./theme";

/** Runs the head script against a stored value and reports the data-theme it set, if any. */
function runScript(stored: string | null | Error): string | null {
  let theme: string | null = null;
  const localStorage = {
    getItem: (key: string) => {
      if (stored instanceof Error) throw stored;
      return key === THEME_STORAGE_KEY ? stored : null;
    },
  };
  const document = { documentElement: { setAttribute: (name: string, value: string) => name === "data-theme" && (theme = value) } };
  new Function("localStorage", "document", applyThemeScript)(localStorage, document);
  return theme;
}

describe("theme choice", () => {
  it("reads only light and dark as choices; anything else is the system's", () => {
    expect(readTheme("light")).toBe("light");
    expect(readTheme("dark")).toBe("dark");
    expect(readTheme("system")).toBe("system");
    expect(readTheme("LIGHT")).toBe("system");
    expect(readTheme(null)).toBe("system");
  });

  it("the head script applies a stored choice, ignores junk and survives a refused storage", () => {
    expect(runScript("light")).toBe("light");
    expect(runScript("dark")).toBe("dark");
    expect(runScript("purple")).toBeNull();
    expect(runScript(null)).toBeNull();
    expect(runScript(new Error("SecurityError"))).toBeNull();
  });
});
