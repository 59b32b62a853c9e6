import { z } from "zod";
import type { PresetDef } from "../core/probe";
import { isPowerOfTwo, targetSchema } from "../core/schemas";
import { JOB_FILE_MAX_BYTES, describeProblem, validateJobFile } from "./jobfile/validate";
import { sniaPresets, sniaRefine, sniaRoundSecSchema } from "./snia/params";
import { steadyStateRefusal, steadyStateSchema } from "./steady-state";

export const fioParamsSchema = z
  .object({
    target: targetSchema,
    rw: z.enum(["read", "write", "randread", "randwrite", "randrw"]).default("randread"),
    /** randrw only: the share of reads in percent (fio's rwmixread); fio's own default is 50. */
    rwmixread: z.number().int().min(0).max(100).optional(),
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
    /**
     * Passes over the file (fio's loops), without a runtime. fio opens the file again for each
     * and, with invalidate on (its default), drops the file's cached pages first: buffered reads
     * stay cold pass after pass, where a time-based loop would reread the page cache.
     */
    loops: z.number().int().min(1).max(1000).optional(),
    /**
     * Writes only: lay the file out before the timed job (fio's overwrite), so the job rewrites
     * allocated blocks instead of allocating as it goes.
     */
    overwrite: z.boolean().optional(),
    /**
     * false: keep the file's pages in the page cache before the job (fio's invalidate=0; fio drops
     * them by default). With overwrite, the timed writes then dirty cached pages and no page
     * allocation is inside the timing: what the dirty-threshold trials need.
     */
    invalidate: z.boolean().optional(),
    ioengine: z.enum(["psync", "libaio", "io_uring"]).default("psync"),
    iodepth: z.number().int().min(1).max(1024).default(1),
    numjobs: z.number().int().min(1).max(64).default(1),
    direct: z.boolean().default(true),
    /**
     * Run the job only on these NUMA nodes' CPUs (fio's numa_cpu_nodes, e.g. "0" or "0,2-3"), so
     * its page cache is allocated on node 0 first: what the vm.zone_reclaim_mode trial needs.
     */
    numaCpuNodes: z
      .string()
      .regex(/^\d{1,4}(-\d{1,4})?(,\d{1,4}(-\d{1,4})?){0,63}$/, 'NUMA nodes must be a node list such as "0" or "0,2-3"')
      .optional(),
    /** Set: a SNIA-style steady-state run with rounds this long (probes/fio/snia). */
    sniaRoundSec: sniaRoundSecSchema,
    /** End the time-based job early once steady (fio's steadystate=; probes/fio/steady-state.ts). */
    steadyState: steadyStateSchema.optional(),
    /**
     * A fio job file to run instead of the fields above (which then only keep their defaults):
     * checked against the allow-list by probes/fio/jobfile/validate.ts, here and so again by the agent.
     */
    jobFile: z.string().max(JOB_FILE_MAX_BYTES, "a job file may be at most 64 KiB").optional(),
  })
  .superRefine((p, ctx) => {
    if (p.jobFile === undefined) return;
    // A job file carries its own workload: fio's steadystate options go inside it, and the SNIA rounds are a preset's.
    if (p.steadyState !== undefined) ctx.addIssue({ code: "custom", path: ["steadyState"], message: "a job file sets its own options: put steadystate= in the job file instead" });
    if (p.sniaRoundSec !== undefined) ctx.addIssue({ code: "custom", path: ["sniaRoundSec"], message: "SNIA-style rounds run a preset's workload, not a job file" });
    const verdict = validateJobFile(p.jobFile);
    if (!verdict.ok) for (const problem of verdict.problems) ctx.addIssue({ code: "custom", path: ["jobFile"], message: describeProblem(problem) });
  })
  .refine(...sniaRefine)
  .refine((p) => p.ioengine !== "psync" || p.iodepth === 1, {
    path: ["iodepth"],
    message: "psync is synchronous: iodepth above 1 needs ioengine libaio or io_uring",
  })
  .refine((p) => !p.target.includes("\\"), {
    path: ["target"],
    message: "fio cannot use a target containing a backslash (it only understands \\: escapes)",
  })
  .refine((p) => p.loops === undefined || p.runtimeSec === undefined, { path: ["loops"], message: "passes (loops) and a runtime exclude each other: a time-based run ends at its runtime whatever the passes" })
  .refine((p) => p.overwrite === undefined || p.rw === "write" || p.rw === "randwrite" || p.rw === "randrw", { path: ["overwrite"], message: "overwrite (laying the file out first) applies to writes only; fio lays out a file it reads anyway" })
  .refine((p) => p.rwmixread === undefined || p.rw === "randrw", { path: ["rwmixread"], message: "a read share applies to mixed random I/O (rw randrw) only" })
  .refine((p) => p.blockSizeKiB <= p.sizeMiB * 1024, { path: ["blockSizeKiB"], message: "block size must not exceed the file size" })
  .superRefine((p, ctx) => {
    const refused = steadyStateRefusal(p);
    if (refused) ctx.addIssue({ code: "custom", path: refused.path.split("."), message: refused.message });
  });

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
/**
 * One thread, one synchronous pread/pwrite at a time, as the Baidu storage article measured
 * (4 KB requests over a 117 GB data set, far larger than RAM). The file spans 16 GiB here; the
 * launch form sizes it per target (presetSizeMiB, probes/core/sizing.ts): with O_DIRECT the page
 * cache is bypassed, so the file spans what 60 s can reach at most, within the target's free
 * space, and a quarter of RAM on tmpfs.
 */
const randQd1 = { blockSizeKiB: 4, sizeMiB: 16384, runtimeSec: 60, ioengine: "psync", iodepth: 1, numjobs: 1, direct: true } as const;

export { presetSizeMiB } from "../core/sizing";

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
    title: "Random read, 4 KiB, one synchronous thread (QD1)",
    description:
      "60 s of 4 KiB pread calls, one at a time, with O_DIRECT over a file as wide as the run can reach (the form sizes it per target, within its free space): the Baidu article's single-thread random read. fio first lays the file out.",
    params: { ...randQd1, rw: "randread" },
    sizeBeyondRam: true,
  },
  "rand-write-4k": {
    title: "Random write, 4 KiB, one synchronous thread (QD1)",
    description:
      "60 s of 4 KiB pwrite calls, one at a time, with O_DIRECT over a file as wide as the run can reach, within the target's free space: the Baidu article's single-thread random write.",
    params: { ...randQd1, rw: "randwrite" },
    sizeBeyondRam: true,
  },
  "rand-write-4k-buffered": {
    title: "Random write, 4 KiB, QD1, through the page cache",
    description:
      "30 s of 4 KiB pwrite calls on a 1 GiB file without O_DIRECT: for tmpfs (memory), which refuses O_DIRECT before Linux 6.6, and to see what the page cache absorbs on a disk.",
    params: { blockSizeKiB: 4, sizeMiB: 1024, runtimeSec: 30, ioengine: "psync", iodepth: 1, numjobs: 1, direct: false, rw: "randwrite" },
  },
  "rand-rw-4k": {
    title: "Random read/write mix 70/30, 4 KiB, one synchronous thread (QD1)",
    description:
      "60 s of 4 KiB pread and pwrite calls, 70 % reads, one at a time with O_DIRECT over a file as wide as the run can reach, within the target's free space: a database-like mix at the article's single-thread depth.",
    params: { ...randQd1, rw: "randrw", rwmixread: 70 },
    sizeBeyondRam: true,
  },
  "rand-rw-4k-qd32": {
    title: "Random read/write mix 70/30, 4 KiB, queue depth 32 (libaio)",
    description: "30 s of 4 KiB random I/O, 70 % reads and 30 % writes, over a 1 GiB file with libaio at iodepth 32.",
    params: { ...rand, rw: "randrw", rwmixread: 70 },
  },
  "rand-read-4k-qd32": {
    title: "Random read, 4 KiB, queue depth 32 (libaio)",
    description: "30 s of 4 KiB random reads over a 1 GiB file with libaio at iodepth 32: the device's IOPS ceiling, not the article's single-thread method.",
    params: { ...rand, rw: "randread" },
  },
  "rand-write-4k-qd32": {
    title: "Random write, 4 KiB, queue depth 32 (libaio)",
    description: "30 s of 4 KiB random writes over a 1 GiB file with libaio at iodepth 32.",
    params: { ...rand, rw: "randwrite" },
  },
  ...sniaPresets,
};

/** Presets whose file should be larger than the host's RAM; the launch form sizes them per host. */
export const FIO_PRESETS_SIZED_BEYOND_RAM: readonly string[] = Object.keys(fioPresets).filter((id) => fioPresets[id]!.sizeBeyondRam);
