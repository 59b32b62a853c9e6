import type { CommandSpec } from "../core/types";
import { SAR_SECTIONS, type SarParams } from "./params";

export function buildSarCommand(params: SarParams, runDir: string): CommandSpec {
  const args: string[] = [];
  // Canonical order, so that the same choice always gives the same command line.
  for (const s of SAR_SECTIONS) {
    if (!params.sections.includes(s)) continue;
    args.push(`-${s}`);
    // -p prints device names (sda, nvme0n1) instead of devM-N.
    if (s === "d") args.push("-p");
  }
  args.push(String(params.interval), String(params.count));
  return {
    file: "sar",
    args,
    // C: English "Average:" and a dot as decimal separator; ISO: the banner date as YYYY-MM-DD;
    // never: no colour escapes when the agent runs sar under a pseudo-terminal.
    env: { LC_ALL: "C", S_TIME_FORMAT: "ISO", S_COLORS: "never" },
    cwd: runDir,
    timeoutSec: params.interval * params.count + 30,
  };
}

export function sarRequiredFreeBytes(): number {
  return 0;
}
