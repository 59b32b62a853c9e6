import { z } from "zod";
import type { PresetDef } from "../../core/probe";
import { SNIA_MAX_ROUNDS } from "./rule";

/**
 * Round length of a SNIA-style run. The PTS's rounds last a minute; a few seconds suit a small
 * file (a test, a quick look), where the device's caches decide more than its steady state.
 */
export const sniaRoundSecSchema = z.number().int().min(1, "a round lasts at least 1 s").max(600, "a round lasts at most 600 s").optional();

interface SniaShape {
  sniaRoundSec?: number;
  runtimeSec?: number;
  loops?: number;
  overwrite?: boolean;
}

/** A SNIA run's rounds replace runtime and passes; it preconditions the file itself. */
export const sniaRefine: [(p: SniaShape) => boolean, { path: string[]; message: string }] = [
  (p: SniaShape) => p.sniaRoundSec === undefined || (p.runtimeSec === undefined && p.loops === undefined && p.overwrite === undefined),
  { path: ["sniaRoundSec"], message: "a SNIA-style run (round length) sets its own rounds and preconditioning: leave runtime, passes and overwrite unset" },
];

/** What the preset shares with the params type, without importing it (params.ts imports this file). */
interface SniaPresetParams {
  rw: "randwrite";
  blockSizeKiB: number;
  sizeMiB: number;
  ioengine: "libaio";
  iodepth: number;
  numjobs: number;
  direct: true;
  sniaRoundSec: number;
}

export const sniaPresets: Record<string, PresetDef<SniaPresetParams & { target: string }>> = {
  "snia-iops-steady": {
    title: "SNIA-style steady state: 4 KiB random write, QD32, rounds until steady",
    description: `Preconditions a 1 GiB file with sequential writes of twice its size, then runs 60 s rounds of 4 KiB random writes (O_DIRECT, libaio, iodepth 32) until the last 5 rounds' IOPS are steady by SNIA's rule (range within 20 % of their mean, fitted line moving less than 10 %), or ${SNIA_MAX_ROUNDS} rounds pass. Reports whether steady state was reached, after how many rounds, and every round's IOPS.`,
    params: { rw: "randwrite", blockSizeKiB: 4, sizeMiB: 1024, ioengine: "libaio", iodepth: 32, numjobs: 1, direct: true, sniaRoundSec: 60 },
  },
};
