import { z } from "zod";
import type { PresetDef } from "../core/probe";
import { isPowerOfTwo, targetSchema } from "../core/schemas";

export const fioParamsSchema = z
  .object({
    target: targetSchema,
    rw: z.enum(["read", "write", "randread", "randwrite"]).default("randread"),
    blockSizeKiB: z
      .number()
      .int()
      .min(4, "block size must be at least 4 KiB (direct I/O needs whole logical blocks)")
      .max(16384, "block size must be at most 16 MiB")
      .refine(isPowerOfTwo, "block size must be a power of two")
      .default(4),
    sizeMiB: z.number().int().min(1).max(1024 * 1024).default(256),
    /** Set: run for this long (--time_based), rereading/rewriting the file; unset: one pass over it. */
    runtimeSec: z.number().int().min(1).max(86400).optional(),
    ioengine: z.enum(["psync", "libaio", "io_uring"]).default("psync"),
    iodepth: z.number().int().min(1).max(1024).default(1),
    numjobs: z.number().int().min(1).max(64).default(1),
    direct: z.boolean().default(true),
  })
  .refine((p) => p.ioengine !== "psync" || p.iodepth === 1, {
    path: ["iodepth"],
    message: "psync is synchronous: iodepth above 1 needs ioengine libaio or io_uring",
  })
  .refine((p) => !p.target.includes("\\"), {
    path: ["target"],
    message: "fio cannot use a target containing a backslash (it only understands \\: escapes)",
  })
  .refine((p) => p.blockSizeKiB <= p.sizeMiB * 1024, { path: ["blockSizeKiB"], message: "block size must not exceed the file size" });

export type FioParams = z.infer<typeof fioParamsSchema>;

export const fioDefaults: Omit<FioParams, "target"> = {
  rw: "randread",
  blockSizeKiB: 4,
  sizeMiB: 256,
  ioengine: "psync",
  iodepth: 1,
  numjobs: 1,
  direct: true,
};

const seq = { blockSizeKiB: 1024, sizeMiB: 1024, ioengine: "psync", iodepth: 1, numjobs: 1, direct: true } as const;
const rand = { blockSizeKiB: 4, sizeMiB: 1024, runtimeSec: 30, ioengine: "libaio", iodepth: 32, numjobs: 1, direct: true } as const;

export const fioPresets: Record<string, PresetDef<FioParams>> = {
  "seq-write": {
    title: "Sequential write, 1 MiB blocks",
    description: "One pass writing a 1 GiB file with O_DIRECT: the disk's streaming write rate.",
    params: { ...seq, rw: "write" },
  },
  "seq-read": {
    title: "Sequential read, 1 MiB blocks",
    description: "fio lays out a 1 GiB file, then reads it once with O_DIRECT: the streaming read rate.",
    params: { ...seq, rw: "read" },
  },
  "rand-read-4k": {
    title: "Random read, 4 KiB, queue depth 32",
    description: "30 s of 4 KiB random reads over a 1 GiB file with libaio at iodepth 32: IOPS and latency.",
    params: { ...rand, rw: "randread" },
  },
  "rand-write-4k": {
    title: "Random write, 4 KiB, queue depth 32",
    description: "30 s of 4 KiB random writes over a 1 GiB file with libaio at iodepth 32.",
    params: { ...rand, rw: "randwrite" },
  },
};
