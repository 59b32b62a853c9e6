import { Fragment } from "react";

/**
 * Text that may wrap after each "/", ".", ",", "=", ":" or "+": a long path, sysctl name or option
 * list wraps between its parts, never inside a word. (`overflow-wrap: anywhere` would let a table
 * squeeze a column until words split; `break-word` alone keeps a 50-character path on one line and
 * widens its column past the window.)
 */
export function Breakable({ text }: { text: string }) {
  const parts = text.split(/(?<=[/.,=:+])/);
  return (
    <>
      {parts.map((p, i) => (
        <Fragment key={i}>
          {i > 0 ? <wbr /> : null}
          {p}
        </Fragment>
      ))}
    </>
  );
}
