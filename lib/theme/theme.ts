// The theme choice, shared by the toggle (components/theme-toggle.tsx) and the script that applies it
// before first paint (app/layout.tsx). "system" follows prefers-color-scheme through the CSS alone.

export const THEME_STORAGE_KEY = "probebook-theme";
export const THEMES = ["system", "light", "dark"] as const;
export type Theme = (typeof THEMES)[number];

export function readTheme(value: string | null | undefined): Theme {
  return value === "light" || value === "dark" ? value : "system";
}

/**
 * Runs inline in <head> before the body paints: a stored choice becomes data-theme on <html>, so
 * the page never shows the other theme first. A browser refusing localStorage keeps "system".
 */
export const applyThemeScript = `(function(){try{var t=localStorage.getItem(${JSON.stringify(THEME_STORAGE_KEY)});if(t==="light"||t==="dark")document.documentElement.setAttribute("data-theme",t);}catch(e){}})();`;
