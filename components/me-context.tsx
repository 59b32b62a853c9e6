"use client";

import { usePathname } from "next/navigation";
import { createContext, useContext, useEffect, useState, type ReactNode } from "react";

export interface Me {
  email: string;
  role: string;
}

/** undefined while asking, null when nobody is signed in. */
export interface MeState {
  user: Me | null | undefined;
  /** Open alerts for the header's badge; null when signed out or not known yet. */
  openAlerts: { regressions: number; improvements: number } | null;
}

const MeContext = createContext<MeState>({ user: undefined, openAlerts: null });

/**
 * The signed-in user and the open-alert count, fetched by the browser (once per navigation, for
 * the whole header) so that rendering a public page (guides, share links) never reads the session.
 */
export function MeProvider({ children }: { children: ReactNode }) {
  const pathname = usePathname();
  const [state, setState] = useState<MeState>({ user: undefined, openAlerts: null });
  useEffect(() => {
    let live = true;
    fetch("/api/me", { cache: "no-store" })
      .then((r) => r.json() as Promise<{ user: Me | null; openAlerts?: MeState["openAlerts"] }>)
      .then((b) => live && setState({ user: b.user, openAlerts: b.openAlerts ?? null }))
      .catch(() => live && setState({ user: null, openAlerts: null }));
    return () => {
      live = false;
    };
  }, [pathname]);
  return <MeContext.Provider value={state}>{children}</MeContext.Provider>;
}

export function useMe(): MeState {
  return useContext(MeContext);
}
