// A real slow-down for the trends e2e test: a write-bandwidth limit on the block device under a
// directory, for a process and every process it starts afterwards (an agent's probes inherit its
// cgroup). cgroup v1's blkio.throttle.write_bps_device, or cgroup v2's io.max where the io
// controller is available. Only direct I/O is limited under v1: buffered write-back is issued by
// the kernel's flusher threads, outside the cgroup, so the probe must write with O_DIRECT.
import fs from "node:fs";
import path from "node:path";

const V1_ROOT = "/sys/fs/cgroup/blkio";
const PREFIX = "pb-e2e-";

type Flavour = { kind: "v1"; root: string } | { kind: "v2"; root: string };

export type ThrottleSupport = { ok: true; flavour: Flavour; device: string } | { ok: false; reason: string };

/** The cgroup v2 mount whose root offers the io controller, if any. */
function v2RootWithIo(): string | null {
  const mounts = fs.readFileSync("/proc/mounts", "utf8").split("\n");
  for (const line of mounts) {
    const [, where, type] = line.split(" ");
    if (type !== "cgroup2" || !where) continue;
    try {
      if (fs.readFileSync(path.join(where, "cgroup.controllers"), "utf8").split(/\s+/).includes("io")) return where;
    } catch {
      // An unreadable mount is no candidate.
    }
  }
  return null;
}

/**
 * "major:minor" of the whole disk holding `dir`: throttles apply to a disk's queue, and cgroup v1
 * refuses a partition's numbers. Null when the file system has no block device (tmpfs, overlay).
 */
export function diskOf(dir: string): string | null {
  const dev = fs.statSync(dir, { bigint: true }).dev;
  // Linux's new_decode_dev: the major in bits 8–19 (and above 32), the minor in the rest.
  const major = Number(((dev >> 8n) & 0xfffn) | ((dev >> 32n) & ~0xfffn));
  const minor = Number((dev & 0xffn) | ((dev >> 12n) & ~0xffn));
  const sys = `/sys/dev/block/${major}:${minor}`;
  if (!fs.existsSync(sys)) return null;
  const real = fs.realpathSync(sys);
  const whole = fs.existsSync(path.join(real, "partition")) ? path.dirname(real) : real;
  return fs.readFileSync(path.join(whole, "dev"), "utf8").trim();
}

/** Whether this machine can throttle writes to `dir`'s disk, and if not, why (for test.skip). */
export function throttleSupport(dir: string): ThrottleSupport {
  if (process.getuid?.() !== 0) return { ok: false, reason: "throttling a block device needs root (cgroup files are root's)" };
  const device = diskOf(dir);
  if (!device) return { ok: false, reason: `${dir} is on no block device (tmpfs, overlay…): there is nothing to throttle` };
  if (fs.existsSync(path.join(V1_ROOT, "blkio.throttle.write_bps_device"))) return { ok: true, flavour: { kind: "v1", root: V1_ROOT }, device };
  const v2 = v2RootWithIo();
  if (v2) return { ok: true, flavour: { kind: "v2", root: v2 }, device };
  return { ok: false, reason: "neither cgroup v1 blkio throttling (/sys/fs/cgroup/blkio) nor a cgroup v2 io controller (io.max) is available" };
}

/** The pids in a cgroup directory. */
function procsOf(dir: string): number[] {
  try {
    return fs
      .readFileSync(path.join(dir, "cgroup.procs"), "utf8")
      .split("\n")
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

/** Moves a pid into a cgroup; a process that has exited meanwhile is no error. */
function movePid(dir: string, pid: number): void {
  try {
    fs.writeFileSync(path.join(dir, "cgroup.procs"), String(pid));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ESRCH") throw err;
  }
}

/** The pid and its descendants, from /proc's parent links. */
function processTree(pid: number): number[] {
  const parents = new Map<number, number[]>();
  for (const name of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // Field 4 of stat, after the command name in parentheses (which may hold spaces).
      const stat = fs.readFileSync(`/proc/${name}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      parents.set(ppid, [...(parents.get(ppid) ?? []), Number(name)]);
    } catch {
      // Gone meanwhile.
    }
  }
  const out: number[] = [];
  const todo = [pid];
  while (todo.length) {
    const p = todo.pop()!;
    out.push(p);
    todo.push(...(parents.get(p) ?? []));
  }
  return out;
}

/** Empty cgroups a crashed earlier run of the test left behind. */
function sweepStale(root: string): void {
  for (const name of fs.readdirSync(root)) {
    if (!name.startsWith(PREFIX)) continue;
    const dir = path.join(root, name);
    if (procsOf(dir).length === 0) fs.rmdirSync(dir);
  }
}

export interface BlkioThrottle {
  /** "major:minor" of the throttled disk. */
  device: string;
  /** The limit in bytes per second, null while none is set. */
  limit: number | null;
  /** Puts `pid` and its descendants in the cgroup (children started later inherit it). */
  adopt(pid: number): void;
  /** Limits the cgroup's writes to the disk to `bytesPerSecond`. */
  limitWrites(bytesPerSecond: number): void;
  /** Moves every process back to the root cgroup and removes the cgroup. */
  remove(): void;
}

/** A new cgroup throttling writes to `support.device`; nothing is limited until limitWrites. */
export function createThrottle(support: Extract<ThrottleSupport, { ok: true }>, tag: string): BlkioThrottle {
  const { flavour, device } = support;
  try {
    sweepStale(flavour.root);
  } catch {
    // A sweep is a courtesy: a leftover cgroup does not stop this one.
  }
  if (flavour.kind === "v2") {
    // The root may hand the io controller to its children (the root has no internal-process rule).
    fs.writeFileSync(path.join(flavour.root, "cgroup.subtree_control"), "+io");
  }
  const dir = path.join(flavour.root, `${PREFIX}${tag}-${process.pid}`);
  fs.mkdirSync(dir);
  const handle: BlkioThrottle = {
    device,
    limit: null,
    adopt(pid) {
      for (const p of processTree(pid)) movePid(dir, p);
    },
    limitWrites(bytesPerSecond) {
      const n = Math.max(1, Math.round(bytesPerSecond));
      if (flavour.kind === "v1") fs.writeFileSync(path.join(dir, "blkio.throttle.write_bps_device"), `${device} ${n}`);
      else fs.writeFileSync(path.join(dir, "io.max"), `${device} wbps=${n}`);
      handle.limit = n;
    },
    remove() {
      if (!fs.existsSync(dir)) return;
      // rmdir fails while a process is inside: move them all (the agent and any probe) out first.
      for (let i = 0; i < 5; i++) {
        const pids = procsOf(dir);
        if (pids.length === 0) break;
        for (const p of pids) movePid(flavour.root, p);
      }
      fs.rmdirSync(dir);
      handle.limit = null;
    },
  };
  return handle;
}
