import { z } from "zod";
import type { PresetDef } from "../core/probe";
import { isPowerOfTwo, targetSchema } from "../core/schemas";

import { AUTO_TABLE_TESTS, IOZONE_TESTS, THROUGHPUT_LINES, type IozoneTest } from "./tests";

export { AUTO_TABLE_TESTS, IOZONE_TESTS, THROUGHPUT_LINES, type IozoneTest };

const MAX_FILE_MIB = 1024 * 1024; // 1 TiB

const recordKiB = z
  .number()
  .int()
  .min(4, "record size must be at least 4 KiB")
  .max(16384, "record size must be at most 16 MiB (iozone's limit)")
  .refine(isPowerOfTwo, "record size must be a power of two (4, 8, 16 … 16384 KiB)");

const testList = z
  .array(z.literal(IOZONE_TESTS))
  .min(1, "choose at least one test")
  .max(IOZONE_TESTS.length)
  .refine((t) => new Set(t).size === t.length, "tests must not repeat");

export const iozoneParamsSchema = z
  .object({
    target: targetSchema,
    mode: z.enum(["auto", "throughput"]).default("auto"),
    fileSizeMiB: z.number().int().min(1).max(MAX_FILE_MIB).default(64),
    minRecordKiB: recordKiB.default(4),
    maxRecordKiB: recordKiB.default(256),
    recordKiB: recordKiB.default(64),
    tests: z
      .union([z.literal("all"), testList], { error: 'tests must be "all" or a list of iozone test numbers (0–12)' })
      .default([0, 1, 2]),
    direct: z.boolean().default(false),
    processes: z.number().int().min(1).max(64).default(2),
  })
  .superRefine((p, ctx) => {
    const fileKiB = p.fileSizeMiB * 1024;
    const tests = p.tests === "all" ? null : p.tests;
    // Every other test reads or rewrites the file that the write test (0) creates.
    if (tests && !tests.includes(0)) {
      ctx.addIssue({ code: "custom", path: ["tests"], message: "tests must include 0 (write): the other tests use the file it creates" });
    }
    if (p.mode === "auto") {
      if (p.minRecordKiB > p.maxRecordKiB) {
        ctx.addIssue({ code: "custom", path: ["minRecordKiB"], message: "minimum record size must not exceed the maximum" });
      }
      if (p.minRecordKiB > fileKiB) {
        ctx.addIssue({ code: "custom", path: ["minRecordKiB"], message: "minimum record size must not exceed the file size" });
      }
      const silent = tests?.filter((t) => !AUTO_TABLE_TESTS.includes(t)) ?? [];
      if (silent.length > 0) {
        ctx.addIssue({ code: "custom", path: ["tests"], message: `tests ${silent.join(", ")} have no column in iozone's auto table; use throughput mode for them` });
      }
    } else {
      if (p.recordKiB > fileKiB) {
        ctx.addIssue({ code: "custom", path: ["recordKiB"], message: "record size must not exceed the file size" });
      }
      const silent = tests?.filter((t) => THROUGHPUT_LINES[t] === 0) ?? [];
      if (silent.length > 0) {
        ctx.addIssue({ code: "custom", path: ["tests"], message: `tests ${silent.join(", ")} report nothing in throughput mode` });
      }
    }
  });

export type IozoneParams = z.infer<typeof iozoneParamsSchema>;

export const iozoneDefaults: Omit<IozoneParams, "target"> = {
  mode: "auto",
  fileSizeMiB: 64,
  minRecordKiB: 4,
  maxRecordKiB: 256,
  recordKiB: 64,
  tests: [0, 1, 2],
  direct: false,
  processes: 2,
};

function auto(fileSizeMiB: number, direct: boolean, tests: IozoneParams["tests"]): Omit<IozoneParams, "target"> {
  return { ...iozoneDefaults, mode: "auto", fileSizeMiB, minRecordKiB: 4, maxRecordKiB: 256, tests, direct };
}

export const iozonePresets: Record<string, PresetDef<IozoneParams>> = {
  "ext-article": {
    title: "Classic ext3/ext4 article run",
    description:
      "iozone -a -s 4G -q 256 -y 4: every auto-mode test on a 4 GiB file with records from 4 to 256 KiB, as in the 2009 seed article. Long; the file should still be at least twice the RAM.",
    params: auto(4096, false, "all"),
  },
  "auto-64m": {
    title: "Quick auto run (64 MiB)",
    description: "Write, read and random tests on a 64 MiB file, records 4–256 KiB. Mostly measures the page cache.",
    params: auto(64, false, [0, 1, 2]),
  },
  "auto-64m-direct": {
    title: "Quick auto run, direct I/O (64 MiB)",
    description: "As auto-64m with -I (O_DIRECT), so the page cache is bypassed.",
    params: auto(64, true, [0, 1, 2]),
  },
  "auto-1g": {
    title: "Auto run (1 GiB)",
    description: "Write, read and random tests on a 1 GiB file, records 4–256 KiB.",
    params: auto(1024, false, [0, 1, 2]),
  },
  "auto-1g-direct": {
    title: "Auto run, direct I/O (1 GiB)",
    description: "As auto-1g with -I (O_DIRECT).",
    params: auto(1024, true, [0, 1, 2]),
  },
  "throughput-2": {
    title: "Two-process throughput",
    description: "iozone -t 2 -s 32m -r 64k -i 0 -i 1: two processes write and read 32 MiB each.",
    params: { ...iozoneDefaults, mode: "throughput", fileSizeMiB: 32, recordKiB: 64, tests: [0, 1], direct: false, processes: 2 },
  },
};
