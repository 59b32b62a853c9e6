// The frame line the agent writes before each step of a stepped command (CommandSpec.next), so
// one stored output holds every step and a parser can split it again. One definition, shared by
// the agent (writes) and parsers (read).

const STEP_RE = /^\[probebook step (\d{1,4})\]$/;
export const stepMarker = "[probebook step ";

/** The frame before step `n` (1-based), on a line of its own (CRLF, as a terminal writes). */
export function frameStep(n: number): string {
  return `\r\n${stepMarker}${n}]\r\n`;
}

/** The output of each step in order; text before the first frame is dropped. Never throws. */
export function splitSteps(output: string): { step: number; output: string }[] {
  if (!output.includes(stepMarker)) return [];
  const steps: { step: number; output: string }[] = [];
  let current: { step: number; lines: string[] } | null = null;
  for (const line of output.split(/\r\n|\n/)) {
    const m = STEP_RE.exec(line);
    if (m) {
      if (current) steps.push({ step: current.step, output: current.lines.join("\n") });
      current = { step: Number(m[1]), lines: [] };
    } else current?.lines.push(line);
  }
  if (current) steps.push({ step: current.step, output: current.lines.join("\n") });
  return steps;
}
