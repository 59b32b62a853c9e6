import { inTarget } from "../core/schemas";
import type { CommandSpec } from "../core/types";
import type { DdParams } from "./params";

export const DD_FILE = "probebook-dd.tmp";

function blockSizeArg(kib: number): string {
  return kib % 1024 === 0 ? `${kib / 1024}M` : `${kib}K`;
}

/**
 * One dd process per run in the run's private directory (`runDir`, made by the agent inside the
 * target and removed afterwards). A write creates its file with conv=excl and oflag=nofollow, so
 * even a planted entry is refused rather than followed; a read reads a file the agent lays out
 * first (O_EXCL | O_NOFOLLOW) and opens it with iflag=nofollow.
 */
export function buildDdCommand(params: DdParams, runDir: string): CommandSpec {
  const file = inTarget(runDir, DD_FILE);
  const count = (params.sizeMiB * 1024) / params.blockSizeKiB;
  const write = params.mode === "write";
  const args = write
    ? ["if=/dev/zero", `of=${file}`, `bs=${blockSizeArg(params.blockSizeKiB)}`, `count=${count}`]
    : [`if=${file}`, "of=/dev/null", `bs=${blockSizeArg(params.blockSizeKiB)}`, `count=${count}`];
  const flags = params.direct ? ["direct", "nofollow"] : ["nofollow"];
  args.push(`${write ? "oflag" : "iflag"}=${flags.join(",")}`);
  if (write) args.push(params.fdatasync ? "conv=excl,fdatasync" : "conv=excl");
  args.push("status=progress");
  return {
    file: "dd",
    args,
    env: { LC_ALL: "C" },
    cwd: runDir,
    // Worst case 5 MiB/s (SD card, USB stick, busy HDD) plus a minute of slack.
    timeoutSec: 60 + Math.ceil(params.sizeMiB / 5),
    files: [file],
    ...(write ? {} : { layout: [{ file, bytes: params.sizeMiB * 1024 * 1024 }] }),
  };
}

/** A read needs room for the file the agent lays out first. */
export function ddRequiredFreeBytes(params: DdParams): number {
  return params.sizeMiB * 1024 * 1024;
}
