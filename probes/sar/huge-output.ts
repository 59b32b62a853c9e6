// A sar output of the size that froze the server before parsing moved off the request thread;
// for the unit and end-to-end tests of the parse limits.

/** A sar table `columns` wide and `rows` long (2.4 MB at 4,000 × 120). */
export function wideSarOutput(columns: number, rows: number): string {
  const names = Array.from({ length: columns }, (_, i) => `%c${i}`);
  const lines = ["Linux 6.1.0 (attack) \t2026-11-21 \t_x86_64_\t(2 CPU)", "", `12:00:00        ${names.join(" ")}`];
  const values = names.map((_, i) => (i % 100).toFixed(2)).join(" ");
  for (let r = 1; r <= rows; r++) {
    const s = String(r % 60).padStart(2, "0");
    const m = String(Math.floor(r / 60) % 60).padStart(2, "0");
    lines.push(`12:${m}:${s}        ${values}`);
  }
  return `${lines.join("\n")}\n`;
}
