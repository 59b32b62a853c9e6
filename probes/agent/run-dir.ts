// Every run works in a directory of its own that the agent creates inside the target: a fixed
// scratch name in a shared directory (/dev/shm, /tmp) could be a symlink planted by another user,
// and the probe would then truncate whatever it points at.
import { constants, readFileSync, rmSync, writeFileSync } from "node:fs";
import { lstat, mkdtemp, open, realpath, rm } from "node:fs/promises";
import path from "node:path";

export const RUN_DIR_PREFIX = "probebook-run-";

const uid = () => (typeof process.getuid === "function" ? process.getuid() : 0);

/**
 * Why another user could replace a path component under us, or null when none can: every
 * directory from the target up to / must belong to root or to us, and one that others may write
 * to must carry the sticky bit (then they cannot rename or delete what we create in it).
 */
export async function unsafeAncestor(dir: string): Promise<string | null> {
  const me = uid();
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    const st = await lstat(d);
    if (st.isSymbolicLink()) return `${d} is a symbolic link`;
    if (st.uid !== 0 && st.uid !== me) return `${d} belongs to another user (uid ${st.uid})`;
    if ((st.mode & 0o022) !== 0 && (st.mode & 0o1000) === 0) {
      return `${d} is writable by other users without the sticky bit (mode ${(st.mode & 0o7777).toString(8)})`;
    }
    if (d === path.dirname(d)) return null;
  }
}

/**
 * Creates the run's private directory (mode 0700) inside `target` and proves it is ours: a real
 * directory (not a symlink), owned by this process's user, mode 0700, at the path we asked for.
 * Throws with the reason when any of that cannot be ensured.
 */
export async function makeRunDir(target: string): Promise<string> {
  const unsafe = await unsafeAncestor(target);
  if (unsafe) throw new Error(`cannot make a private run directory in ${target}: ${unsafe}`);
  // mkdtemp: random name, mkdir(2) with 0700, never follows an existing entry.
  const dir = await mkdtemp(path.join(target, RUN_DIR_PREFIX));
  try {
    const st = await lstat(dir);
    if (!st.isDirectory() || st.isSymbolicLink()) throw new Error(`${dir} is not a directory`);
    if (st.uid !== uid()) throw new Error(`${dir} is owned by uid ${st.uid}, not by the agent`);
    if ((st.mode & 0o7777) !== 0o700) throw new Error(`${dir} has mode ${(st.mode & 0o7777).toString(8)}, not 700`);
    if ((await realpath(dir)) !== dir) throw new Error(`${dir} resolves elsewhere`);
  } catch (err) {
    await removeRunDir(dir);
    throw err;
  }
  return dir;
}

/** Removes the run directory and what the tool left in it; symlinks inside are removed, not followed. */
export async function removeRunDir(dir: string): Promise<void> {
  if (!path.basename(dir).startsWith(RUN_DIR_PREFIX)) return;
  await rm(dir, { recursive: true, force: true }).catch(() => undefined);
}

/**
 * Lays out a file a tool will only read (a read-only probe run): created with O_EXCL and O_NOFOLLOW
 * inside the run directory, filled and flushed to disk, so the read measures storage that holds data.
 */
export async function layOutFile(file: string, bytes: number, isCancelled: () => boolean = () => false, content?: string): Promise<void> {
  const fh = await open(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  try {
    // A file the tool reads as its input (a fio job file): its text, nothing else.
    if (content !== undefined) {
      await fh.writeFile(content, "utf8");
      return;
    }
    const block = Buffer.alloc(1024 * 1024, 0x5a);
    for (let written = 0; written < bytes && !isCancelled(); ) {
      const n = Math.min(block.length, bytes - written);
      await fh.write(block, 0, n);
      written += n;
    }
    await fh.datasync();
  } finally {
    await fh.close();
  }
}

/**
 * The run directory in use, written to the state dir before the probe starts and removed after
 * its directory is: an agent killed in the middle of a run (SIGKILL, power loss) would otherwise
 * leave the probe's scratch files — gigabytes for dd or iozone — behind for good. Only the
 * directory this agent recorded is removed at start, never another agent's live one in a shared
 * target such as /dev/shm.
 */
export class RunDirJournal {
  constructor(private readonly file: string) {}

  record(dir: string): void {
    writeFileSync(this.file, `${dir}\n`, { mode: 0o600 });
  }

  clear(): void {
    rmSync(this.file, { force: true });
  }

  /** Removes the directory a previous process of this agent left; returns it, or null. */
  async removeStale(): Promise<string | null> {
    let dir: string;
    try {
      dir = readFileSync(this.file, "utf8").trim();
    } catch {
      return null;
    }
    const ours = path.isAbsolute(dir) && path.basename(dir).startsWith(RUN_DIR_PREFIX);
    const st = ours ? await lstat(dir).catch(() => null) : null;
    const left = st !== null && st.isDirectory() && st.uid === uid();
    if (left) await removeRunDir(dir);
    this.clear();
    return left ? dir : null;
  }
}
