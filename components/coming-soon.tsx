import type { ReactNode } from "react";

/** A page section whose feature is not built yet says plainly what it will hold. */
export function PlannedFeature({ title, children }: { title: string; children: ReactNode }) {
  return (
    <>
      <h1>{title}</h1>
      <div className="empty">{children}</div>
    </>
  );
}
