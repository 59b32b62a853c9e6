// Applies catalogue settings for one experiment arm and always puts them back: journal first,
// then write, then read back; restore writes the original, reads it back, and only then drops
// the journal entry. The allowed names come from the agent's own flags.
import fs from "node:fs/promises";
import path from "node:path";
import { getTunable } from "./catalogue";
import { TunableJournal, type JournalEntry } from "./journal";

/** Writing one of these makes the kernel zero the other (mm/page-writeback.c). */
const COMPANIONS: Record<string, string> = {
  "vm.dirty_ratio": "/proc/sys/vm/dirty_bytes",
  "vm.dirty_background_ratio": "/proc/sys/vm/dirty_background_bytes",
};

export class TunableError extends Error {}

export interface Applied {
  name: string;
  device: string | null;
  original: string;
  value: string;
}

export interface RestoreOutcome {
  name: string;
  device: string | null;
  /** From the journal entry: what was set, by which run. */
  value?: string;
  original?: string;
  runId?: string;
  restored: string;
  ok: boolean;
  error?: string;
}

export interface ControllerOptions {
  stateDir: string;
  allowed: ReadonlySet<string>;
  /** Prefix for /proc and /sys paths; tests point it at a tree of their own. */
  root?: string;
}

const about = (e: JournalEntry) => ({ name: e.name, device: e.device, value: e.value, original: e.original, ...(e.runId ? { runId: e.runId } : {}) });

export class TunableController {
  private readonly journal: TunableJournal;
  private readonly root: string;

  constructor(private readonly options: ControllerOptions) {
    this.journal = new TunableJournal(options.stateDir);
    this.root = options.root ?? "/";
  }

  private abs(file: string) {
    return path.join(this.root, file);
  }

  /** What is changed right now, as the journal records it. */
  changed(): JournalEntry[] {
    return this.journal.entries();
  }

  async read(name: string, device: string | null = null): Promise<string> {
    const def = getTunable(name);
    const file = def?.file(device);
    if (!def || !file) throw new TunableError(`${name} is not in the tunable catalogue${def ? " for this device" : ""}`);
    return def.read(await fs.readFile(this.abs(file), "utf8"));
  }

  async apply(name: string, value: string | number, device: string | null = null, runId?: string): Promise<Applied> {
    const def = getTunable(name);
    if (!def) throw new TunableError(`${name} is not in the tunable catalogue`);
    if (def.writeOnly) throw new TunableError(`${name} is an action, not a setting: ask for dropCaches instead`);
    if (!this.options.allowed.has(name)) throw new TunableError(`${name} may not be changed on this host: start the agent with --allow-tunable ${name}`);
    const file = def.file(device);
    if (!file) throw new TunableError(`${name} needs the target's block device, and none was found`);
    const currentText = await fs.readFile(this.abs(file), "utf8");
    const checked = def.validate(value, currentText);
    if (!checked.ok) throw new TunableError(`${name}: ${checked.error}`);
    const original = def.read(currentText);
    const companionFile = COMPANIONS[name];
    const companions = companionFile ? [{ file: companionFile, original: (await fs.readFile(this.abs(companionFile), "utf8")).trim() }] : [];
    this.journal.add({ name, device, file, original, value: checked.value, companions, at: new Date().toISOString(), ...(runId ? { runId } : {}) });
    try {
      await fs.writeFile(this.abs(file), checked.value);
    } catch (err) {
      await this.restoreEntry(this.journal.entries().find((e) => e.file === file));
      throw new TunableError(`${name}: the kernel refused ${checked.value} (${(err as Error).message})`);
    }
    const readBack = await this.read(name, device);
    if (readBack !== checked.value) {
      await this.restoreEntry(this.journal.entries().find((e) => e.file === file));
      throw new TunableError(`${name}: wrote ${checked.value} but the kernel reports ${readBack}; put back ${original}`);
    }
    return { name, device, original, value: checked.value };
  }

  /** Puts back everything the journal lists: after each arm, on cancel, and at every start. */
  async restoreAll(): Promise<RestoreOutcome[]> {
    const out: RestoreOutcome[] = [];
    for (const entry of this.journal.entries()) out.push(await this.restoreEntry(entry));
    return out;
  }

  private async restoreEntry(entry: JournalEntry | undefined): Promise<RestoreOutcome> {
    if (!entry) return { name: "?", device: null, restored: "", ok: true };
    const def = getTunable(entry.name);
    try {
      await fs.writeFile(this.abs(entry.file), entry.original);
      // A non-zero companion was the setting in force (e.g. dirty_bytes with dirty_ratio 0):
      // writing it last gives back exactly the original pair.
      for (const c of entry.companions) if (c.original !== "0") await fs.writeFile(this.abs(c.file), c.original);
      const now = def ? def.read(await fs.readFile(this.abs(entry.file), "utf8")) : entry.original;
      const companionsBack = await Promise.all(entry.companions.map(async (c) => (await fs.readFile(this.abs(c.file), "utf8")).trim() === c.original));
      if (now !== entry.original || companionsBack.includes(false)) {
        return { ...about(entry), restored: now, ok: false, error: `reads ${now} after restoring ${entry.original}` };
      }
      this.journal.remove(entry.file);
      return { ...about(entry), restored: entry.original, ok: true };
    } catch (err) {
      return { ...about(entry), restored: "", ok: false, error: (err as Error).message };
    }
  }
}
