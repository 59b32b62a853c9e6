import { z } from "zod";
import type { PresetDef } from "../core/probe";
import { targetSchema } from "../core/schemas";

/** Upper bounds keep a run finite: a million empty files is already an hour on a slow disk. */
export const MAX_FILES = 1_000_000;
/** One fio worker per directory: more than 64 processes on a small host measures the scheduler. */
export const MAX_DIRS = 64;

export const fsmetaParamsSchema = z
  .object({
    target: targetSchema,
    /** How many empty files are created, stat'ed and deleted in total. */
    files: z
      .number({ error: (iss) => (iss.input === undefined ? undefined : "files must be a whole number") })
      .int("files must be a whole number")
      .min(100, "files must be at least 100 (fewer finish within fio's millisecond clock)")
      .max(MAX_FILES, `files must be at most ${MAX_FILES.toLocaleString("en")}`)
      .default(50_000),
    /**
     * 1: every file in one directory, as the article's 50,000 tables were. More: the files are
     * split evenly over that many sibling directories, one fio worker per directory, all at once.
     */
    dirs: z.number().int("dirs must be a whole number").min(1, "dirs must be at least 1").max(MAX_DIRS, `dirs must be at most ${MAX_DIRS}`).default(1),
  })
  // zod still runs this when dirs itself failed its bounds: only judge a usable dirs.
  .refine((p) => !(p.dirs >= 1 && p.dirs <= MAX_DIRS) || p.files % p.dirs === 0, {
    path: ["files"],
    message: "files must split evenly over the directories (a multiple of dirs)",
  })
  .refine((p) => !p.target.includes("\\"), {
    path: ["target"],
    message: "fio cannot use a target containing a backslash (it only understands \\: escapes)",
  });

export type FsmetaParams = z.infer<typeof fsmetaParamsSchema>;

export const fsmetaDefaults: Omit<FsmetaParams, "target"> = { files: 50_000, dirs: 1 };

export const fsmetaPresets: Record<string, PresetDef<FsmetaParams>> = {
  "flat-50k": {
    title: "50,000 files in one directory",
    description:
      "Creates 50,000 empty files in one directory, stats each, then deletes them, one after another: the file-level version of the 50,000-table CREATE/DROP test. Reports files per second and latency of each step.",
    params: { files: 50_000, dirs: 1 },
  },
  "tree-50k": {
    title: "50,000 files across 10 directories",
    description:
      "The same 50,000 files split over 10 directories of 5,000, with one fio worker per directory running at once: small directories and parallel writers instead of one large directory.",
    params: { files: 50_000, dirs: 10 },
  },
  quick: {
    title: "Quick check: 5,000 files in one directory",
    description: "Create, stat and delete 5,000 empty files in one directory; takes seconds on most disks.",
    params: { files: 5_000, dirs: 1 },
  },
};
