import { inTarget } from "../core/schemas";
import type { CommandSpec } from "../core/types";
import type { DdParams } from "./params";

export const DD_FILE = "probebook-dd.tmp";

function blockSizeArg(kib: number): string {
  return kib % 1024 === 0 ? `${kib / 1024}M` : `${kib}K`;
}

/**
 * One dd process per run, never a write-then-read script: a read measures the file a previous
 * write left at <target>/probebook-dd.tmp. When it is missing, dd fails with "failed to open …:
 * No such file or directory" and the parser turns that into advice to run a write first.
 */
export function buildDdCommand(params: DdParams): CommandSpec {
  const file = inTarget(params.target, DD_FILE);
  const count = (params.sizeMiB * 1024) / params.blockSizeKiB;
  const args =
    params.mode === "write"
      ? ["if=/dev/zero", `of=${file}`, `bs=${blockSizeArg(params.blockSizeKiB)}`, `count=${count}`]
      : [`if=${file}`, "of=/dev/null", `bs=${blockSizeArg(params.blockSizeKiB)}`, `count=${count}`];
  if (params.direct) args.push(params.mode === "write" ? "oflag=direct" : "iflag=direct");
  if (params.mode === "write" && params.fdatasync) args.push("conv=fdatasync");
  args.push("status=progress");
  const keep = params.keepFile ?? params.mode === "write";
  return {
    file: "dd",
    args,
    env: { LC_ALL: "C" },
    cwd: params.target,
    // Worst case 5 MiB/s (SD card, USB stick, busy HDD) plus a minute of slack.
    timeoutSec: 60 + Math.ceil(params.sizeMiB / 5),
    ...(keep ? {} : { files: [file] }),
  };
}

export function ddRequiredFreeBytes(params: DdParams): number {
  return params.mode === "write" ? params.sizeMiB * 1024 * 1024 : 0;
}
