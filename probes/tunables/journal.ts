// The write-ahead record of every setting the agent has changed and not yet put back. An entry
// is on disk (fsync'ed file and directory) before the kernel value is written, and leaves only
// after the original value has been written back and read back; so after a kill -9 or a power
// cut the next start knows exactly what to restore.
import fs from "node:fs";
import path from "node:path";
import { writeFileDurably } from "../core/durable-write";

export interface JournalEntry {
  name: string;
  device: string | null;
  file: string;
  original: string;
  value: string;
  /** Settings the kernel changes as a side effect (vm.dirty_bytes when vm.dirty_ratio is set). */
  companions: { file: string; original: string }[];
  at: string;
  /** The run whose arm made the change: an interrupted run's finish reports what was reverted. */
  runId?: string;
}

export class TunableJournal {
  readonly file: string;

  constructor(stateDir: string) {
    this.file = path.join(stateDir, "tunables-journal.json");
  }

  entries(): JournalEntry[] {
    let text: string;
    try {
      text = fs.readFileSync(this.file, "utf8");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw err;
    }
    const parsed = JSON.parse(text) as unknown;
    if (!Array.isArray(parsed)) throw new Error(`${this.file} is not a tunables journal`);
    return parsed as JournalEntry[];
  }

  add(entry: JournalEntry): void {
    // The first original wins: a second change of the same setting must not record the
    // experiment's own value as the one to go back to.
    const current = this.entries();
    if (current.some((e) => e.file === entry.file)) return;
    this.write([...current, entry]);
  }

  remove(file: string): void {
    this.write(this.entries().filter((e) => e.file !== file));
  }

  private write(entries: unknown[]): void {
    writeFileDurably(this.file, JSON.stringify(entries, null, 1));
  }
}
