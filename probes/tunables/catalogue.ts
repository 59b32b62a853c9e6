// The fixed catalogue of kernel settings an experiment may change. Nothing outside it can ever be
// written, whatever the server asks: a name maps to one file under /proc/sys or /sys, and each
// entry validates the value before anything is written. Which of these an agent may change at all
// is the host owner's choice (`--allow-tunable`), not the server's.
import path from "node:path";

export type TunableScope = "host" | "device";

export interface TunableDef {
  name: string;
  scope: TunableScope;
  description: string;
  /** The file that holds the value; device tunables need the whole-disk name (e.g. "vda"). */
  file(device: string | null): string | null;
  /**
   * The value to write, or an error a person can act on. `current` is the file's text now, or null
   * where the file cannot be read (the server, which checks an experiment's arms with these same
   * validators): a choice the device's own file lists is then checked against every choice the
   * kernel has, and the agent checks it against the device's file again before it writes.
   */
  validate(value: string | number, current: string | null): { ok: true; value: string } | { ok: false; error: string };
  /** The effective value as the file shows it (e.g. "[mq-deadline]" in a list → "mq-deadline"). */
  read(text: string): string;
  /**
   * An action rather than a setting: the file cannot be read back and there is nothing to
   * restore (vm.drop_caches). It is never applied as a tunable; allowing it lets an arm ask for
   * `dropCaches`.
   */
  writeOnly?: boolean;
}

const plain = (text: string) => text.trim();
/** Files that list every choice and bracket the active one (THP, I/O schedulers). */
const bracketed = (text: string) => /\[([^\]]+)\]/.exec(text)?.[1] ?? text.trim();
const choicesOf = (text: string) => text.replace(/[[\]]/g, "").trim().split(/\s+/).filter(Boolean);

function integer(min: number, max: number): TunableDef["validate"] {
  return (value) => {
    const text = String(value).trim();
    if (!/^\d+$/.test(text)) return { ok: false, error: `expected a whole number from ${min} to ${max}, got "${text}"` };
    const n = Number(text);
    if (n < min || n > max) return { ok: false, error: `must be from ${min} to ${max}, got ${n}` };
    return { ok: true, value: String(n) };
  };
}

/**
 * Every I/O scheduler in mainline Linux: blk-mq's four, and the legacy three a kernel before 5.0
 * offers. A disk lists the ones it has in its own `queue/scheduler` file.
 */
export const KERNEL_IO_SCHEDULERS: readonly string[] = ["none", "mq-deadline", "kyber", "bfq", "noop", "deadline", "cfq"];

/** One of `fixed`, or, for a file that lists its own choices, one of those (`known` where it cannot be read). */
function oneOf(fixed: readonly string[] | null, known: readonly string[] = []): TunableDef["validate"] {
  return (value, current) => {
    const text = String(value).trim();
    const choices = fixed ?? (current === null ? known : choicesOf(current));
    return choices.includes(text) ? { ok: true, value: text } : { ok: false, error: `must be one of ${choices.join(", ")}, got "${text}"` };
  };
}

function sysctl(name: string, description: string, min: number, max: number): TunableDef {
  return {
    name,
    scope: "host",
    description,
    file: () => path.join("/proc/sys", ...name.split(".")),
    validate: integer(min, max),
    read: plain,
  };
}

function blockQueue(setting: string, description: string, validate: TunableDef["validate"], read: TunableDef["read"]): TunableDef {
  return {
    name: `queue/${setting}`,
    scope: "device",
    description,
    // Device names come from the agent's own profile, never from the server; refuse anything
    // that is not a plain kernel device name all the same.
    file: (device) => (device && /^[a-z][a-z0-9_-]*$/.test(device) ? path.join("/sys/block", device, "queue", setting) : null),
    validate,
    read,
  };
}

export const TUNABLES: readonly TunableDef[] = [
  sysctl("vm.dirty_ratio", "% of available memory that may be dirty before writers are throttled", 0, 100),
  sysctl("vm.dirty_background_ratio", "% of available memory that may be dirty before background writeback starts", 0, 100),
  sysctl("vm.dirty_expire_centisecs", "age (1/100 s) after which dirty data is written back", 0, 2_147_483_647),
  sysctl("vm.dirty_writeback_centisecs", "interval (1/100 s) of the writeback threads", 0, 2_147_483_647),
  // 200 is the kernel's maximum since Linux 5.8; older kernels refuse more than 100, which the
  // read-back check reports.
  sysctl("vm.swappiness", "preference for swapping anonymous memory over dropping page cache", 0, 200),
  sysctl("vm.zone_reclaim_mode", "reclaim on the local NUMA node before allocating on another (bitmask 0–7)", 0, 7),
  sysctl("vm.vfs_cache_pressure", "how eagerly dentry and inode caches are reclaimed", 0, 1000),
  {
    // Write-only (mode 0200): allowing it lets arms drop the page cache before the probe
    // (`sync`, then 3 = page cache, dentries and inodes). Never a value of an arm.
    name: "vm.drop_caches",
    scope: "host",
    description: "drop the page cache, dentries and inodes before the probe (after sync); an action, not a setting",
    file: () => "/proc/sys/vm/drop_caches",
    validate: integer(3, 3),
    read: plain,
    writeOnly: true,
  },
  {
    name: "thp.enabled",
    scope: "host",
    description: "transparent huge pages",
    file: () => "/sys/kernel/mm/transparent_hugepage/enabled",
    validate: oneOf(["always", "madvise", "never"]),
    read: bracketed,
  },
  {
    name: "thp.defrag",
    scope: "host",
    description: "transparent huge page defragmentation on fault",
    file: () => "/sys/kernel/mm/transparent_hugepage/defrag",
    validate: oneOf(["always", "defer", "defer+madvise", "madvise", "never"]),
    read: bracketed,
  },
  // The schedulers this kernel offers are the ones its file lists.
  blockQueue("scheduler", "I/O scheduler of the target's disk", oneOf(null, KERNEL_IO_SCHEDULERS), bracketed),
  blockQueue("read_ahead_kb", "read-ahead of the target's disk in KiB", integer(0, 65_536), plain),
  blockQueue("nr_requests", "request queue depth of the target's disk", integer(4, 65_536), plain),
];

export const TUNABLE_NAMES: readonly string[] = TUNABLES.map((t) => t.name);

export function getTunable(name: string): TunableDef | undefined {
  return TUNABLES.find((t) => t.name === name);
}

/** The names an experiment arm may set: the catalogue less its actions (vm.drop_caches). */
export const ARM_TUNABLE_NAMES: readonly string[] = TUNABLES.filter((t) => !t.writeOnly).map((t) => t.name);

/** Why `name` can never be an arm's setting (not in the catalogue, or an action), or null. */
export function notArmSetting(name: string): string | null {
  const def = getTunable(name);
  if (!def) return `${name} is not in Probebook's tunable catalogue (${ARM_TUNABLE_NAMES.join(", ")})`;
  if (def.writeOnly) return `${name} is an action, not a setting: ask for a cache drop (dropCaches) instead`;
  return null;
}

/** `--allow-tunable a,b` → the names, or an error naming what is not in the catalogue. */
export function parseAllowTunables(list: readonly string[]): { ok: true; names: string[] } | { ok: false; error: string } {
  const names = [...new Set(list.flatMap((s) => s.split(",")).map((s) => s.trim()).filter(Boolean))];
  const unknown = names.filter((n) => !getTunable(n));
  if (unknown.length > 0) return { ok: false, error: `unknown tunable ${unknown.join(", ")}: choose from ${TUNABLE_NAMES.join(", ")}` };
  return { ok: true, names };
}
