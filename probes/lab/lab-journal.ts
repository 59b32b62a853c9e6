// Lab file systems the agent has started to make and not yet removed, fsync'ed before each step.
import fs from "node:fs";
import path from "node:path";
import { writeFileDurably } from "../core/durable-write";

export interface LabEntry {
  id: string;
  /** The private directory holding the image and the mount point; removed last. */
  home: string;
  image: string;
  mountPoint: string;
  loopDevice: string | null;
  at: string;
  /** The run whose arm made it: an interrupted run's finish reports what was removed. */
  runId?: string;
  /** Set for a --lab-device arm: `image` is then the device, never deleted or detached. */
  device?: string;
  /** What was mounted, once it was: for that report (kind, dio, device are absent in older journals). */
  mounted?: {
    fsType: string;
    mkfsCommand: string;
    mountOptions: string[];
    driver: string;
    sizeBytes: number;
    kind?: "loop-dio" | "loop-buffered" | "device";
    dio?: boolean;
    dioReason?: string | null;
    device?: string | null;
  };
}

export class LabJournal {
  readonly file: string;

  constructor(stateDir: string) {
    this.file = path.join(stateDir, "lab-journal.json");
  }

  entries(): LabEntry[] {
    try {
      const parsed = JSON.parse(fs.readFileSync(this.file, "utf8")) as unknown;
      return Array.isArray(parsed) ? (parsed as LabEntry[]) : [];
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw err;
    }
  }

  add(entry: LabEntry): void {
    this.write([...this.entries(), entry]);
  }

  update(entry: LabEntry): void {
    this.write(this.entries().map((e) => (e.id === entry.id ? entry : e)));
  }

  remove(id: string): void {
    this.write(this.entries().filter((e) => e.id !== id));
  }

  private write(entries: unknown[]): void {
    writeFileDurably(this.file, JSON.stringify(entries, null, 1));
  }
}
