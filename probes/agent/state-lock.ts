// One agent per state directory: two agents sharing one would each replay the other's live spool
// as interrupted runs. A pid file created with O_EXCL is the lock; a file whose process is gone
// (the agent was killed) is stale and taken over.
import { closeSync, constants, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import path from "node:path";

export const LOCK_FILE = "agent.pid";

const held = new Set<string>();

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, under another user.
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

function holder(file: string): number | null {
  try {
    const pid = Number.parseInt(readFileSync(file, "utf8").trim(), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

export interface StateLock {
  release(): void;
}

/** Takes the state dir's lock, or throws with a message that names the other agent's pid. */
export function lockStateDir(stateDir: string): StateLock {
  const file = path.join(stateDir, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    let fd: number;
    try {
      fd = openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const pid = holder(file);
      const ours = pid === process.pid;
      if (pid !== null && ((ours && held.has(file)) || (!ours && alive(pid)))) {
        throw new Error(`another agent (pid ${pid}) is using the state directory ${stateDir}; stop it first, or give this one its own --state-dir`);
      }
      // Stale: its agent is gone. Removing and retrying keeps O_EXCL's guarantee if two start at once.
      try {
        unlinkSync(file);
      } catch {
        // the other starter removed it first
      }
      continue;
    }
    writeSync(fd, `${process.pid}\n`);
    closeSync(fd);
    held.add(file);
    return {
      release() {
        if (!held.delete(file)) return;
        if (holder(file) === process.pid) {
          try {
            unlinkSync(file);
          } catch {
            // already gone
          }
        }
      },
    };
  }
  throw new Error(`cannot take the lock ${file}: another agent is starting with the same --state-dir`);
}
