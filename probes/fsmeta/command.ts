// Why fio and not a shell loop, bonnie++ or mdtest: fio 3.x is already a Probebook tool, users
// trust its timing, and fio 3.x has three engines that time exactly one metadata call per
// file: filecreate (open(O_CREAT)), filestat (stat) and filedelete (unlink). One fio process runs
// the three steps back to back (stonewall) on the same file names and prints one JSON report with
// each step's rate and latency percentiles; no second tool has to be installed. bonnie++ and mdtest
// would be new dependencies (mdtest needs MPI), and a shell loop measures fork+exec, not the
// file system.
import type { CommandSpec } from "../core/types";
import type { FsmetaParams } from "./params";

/** Flat layout: the files sit in the run directory itself, named by this prefix. */
export const FLAT_PREFIX = "probebook-fsmeta.";
/** Tree layout: one sub-directory per worker below this directory of the run directory. */
export const TREE_DIR = "probebook-fsmeta";

export const PHASES = ["create", "stat", "delete"] as const;
export type Phase = (typeof PHASES)[number];
const ENGINE: Record<Phase, string> = { create: "filecreate", stat: "filestat", delete: "filedelete" };

/** fio splits directory= on ":"; a literal colon must be written "\:" (see probes/fio). */
function directoryArg(target: string): string {
  return target.replace(/:/g, "\\:");
}

export function isTree(params: FsmetaParams): boolean {
  return params.dirs > 1;
}

export function filesPerDir(params: FsmetaParams): number {
  return params.files / params.dirs;
}

/** Directories of the tree, relative to the run directory; fio's clone number $jobnum picks one. */
export function treeDirs(params: FsmetaParams): string[] {
  return Array.from({ length: params.dirs }, (_, i) => `${TREE_DIR}/d${i}`);
}

/** fio needs the directories to exist before it opens files in them; 3.33 has no dircreate engine. */
function execSection(name: string, program: string, args: string[]): string[] {
  // The exec engine runs the program and keeps the job alive for `runtime`; mkdir and rmdir end
  // at once, so 100 ms is enough. Output goes to the terminal (std_redirect=0), not to files.
  return [`--name=${name}`, "--stonewall", "--ioengine=exec", `--program=${program}`, `--arguments=${args.join(" ")}`, "--std_redirect=0", "--runtime=100ms", "--numjobs=1"];
}

function phaseSection(phase: Phase, params: FsmetaParams, runDir: string): string[] {
  const tree = isTree(params);
  return [
    `--name=${phase}`,
    "--stonewall",
    `--ioengine=${ENGINE[phase]}`,
    `--directory=${directoryArg(runDir)}`,
    // Same names in all three steps, so stat and delete find what create made.
    `--filename_format=${tree ? `${TREE_DIR}/d$jobnum/f.$filenum` : `${FLAT_PREFIX}$filenum`}`,
    `--nrfiles=${filesPerDir(params)}`,
    `--numjobs=${params.dirs}`,
    // No data is written: filesize only drives fio's accounting (one 4 KiB "I/O" per file).
    "--filesize=4k",
    "--fallocate=none",
    "--openfiles=1",
    // Without it fio creates the files while setting up, untimed, and the create step times open().
    "--create_on_open=1",
    // fio's default round-robin file service costs O(files) per step (measured: 1.6 ms of fio
    // overhead per stat at 20,000 files); sequential walks the files once.
    "--file_service_type=sequential",
  ];
}

/** A slow disk creates about 50 files/s; all three steps at 25 files/s, plus two minutes. */
export function fsmetaTimeoutSec(params: FsmetaParams): number {
  return 120 + Math.ceil(params.files / 25);
}

/**
 * `runDir` is the run's private directory inside the target, made by the agent: every file and
 * directory the steps make lives there, and the agent removes it after the run however it ends.
 */
export function buildFsmetaCommand(params: FsmetaParams, runDir: string): CommandSpec {
  const tree = isTree(params);
  const dirs = treeDirs(params);
  // normal,json: JSON alone makes fio 3.33 print no ETA lines, and those are the only live
  // progress it has. The parser reads the JSON document and ignores the text report.
  const args = ["--output-format=normal,json", "--eta=always", "--group_reporting"];
  if (tree) args.push(...execSection("mkdir", "mkdir", ["-p", ...dirs]));
  for (const phase of PHASES) args.push(...phaseSection(phase, params, runDir));
  if (tree) args.push(...execSection("rmdir", "rmdir", [...dirs, TREE_DIR]));
  return { file: "fio", args, env: { LC_ALL: "C" }, cwd: runDir, timeoutSec: fsmetaTimeoutSec(params) };
}

/**
 * The files are empty, but every one costs an inode and a directory entry. 1 KiB per file covers
 * ext4's 256-byte inodes plus directory blocks with room to spare; the real limit on many file
 * systems is free inodes, which `df -i` shows.
 */
export function fsmetaRequiredFreeBytes(params: FsmetaParams): number {
  return params.files * 1024 + params.dirs * 4096;
}
