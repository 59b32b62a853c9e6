"use client";

import { useSyncExternalStore } from "react";
import { THEME_STORAGE_KEY, THEMES, readTheme, type Theme } from "@/lib/theme/theme";

const LABELS: Record<Theme, string> = { system: "System", light: "Light", dark: "Dark" };
const listeners = new Set<() => void>();

function subscribe(onChange: () => void) {
  listeners.add(onChange);
  window.addEventListener("storage", onChange);
  return () => {
    listeners.delete(onChange);
    window.removeEventListener("storage", onChange);
  };
}

// <html data-theme> is the truth: the inline script of app/layout.tsx set it from storage.
const current = (): Theme => readTheme(document.documentElement.getAttribute("data-theme"));

function choose(theme: Theme) {
  const root = document.documentElement;
  if (theme === "system") root.removeAttribute("data-theme");
  else root.setAttribute("data-theme", theme);
  try {
    if (theme === "system") localStorage.removeItem(THEME_STORAGE_KEY);
    else localStorage.setItem(THEME_STORAGE_KEY, theme);
  } catch {
    // Storage refused (private mode, policy): the choice holds for this page only.
  }
  for (const l of listeners) l();
}

/** System / Light / Dark; a native select, so keyboards and screen readers need nothing more. */
export function ThemeToggle() {
  // The server renders "system"; the client's first render after hydration reads data-theme.
  const theme = useSyncExternalStore(subscribe, current, () => "system" as Theme);
  return (
    <label className="theme-toggle">
      Theme
      <select value={theme} onChange={(e) => choose(readTheme(e.target.value))}>
        {THEMES.map((t) => (
          <option key={t} value={t}>
            {LABELS[t]}
          </option>
        ))}
      </select>
    </label>
  );
}
