// A minimal Debian root file system (debootstrap --variant=minbase, plus curl for the one-line
// install) in which the agent executable must run: no Node, no npm, no compiler. Made once and
// kept under .data/debian-root/ (a marker file says it is complete); each test mounts an overlay
// on it, so what a test installs never reaches the cached root.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(__dirname, "..", "..");
const cacheDir = path.join(root, ".data", "debian-root");
const SUITE = "bookworm";
const INCLUDE = ["curl"];
const ROOT_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

/** The Debian mirror apt uses on this machine (deb822 or one-line sources), else deb.debian.org. */
export function debianMirror(): string {
  const candidates = ["/etc/apt/sources.list.d/debian.sources", "/etc/apt/sources.list"];
  for (const file of candidates) {
    let text: string;
    try {
      text = fs.readFileSync(file, "utf8");
    } catch {
      continue;
    }
    const deb822 = /^URIs:\s*(\S+\/debian)\/?\s*$/m.exec(text);
    if (deb822) return deb822[1]!;
    const line = /^deb\s+(?:\[[^\]]*\]\s+)?(\S+\/debian)\/?\s+bookworm\s/m.exec(text);
    if (line) return line[1]!;
  }
  return "http://deb.debian.org/debian";
}

/** The cached root, made with debootstrap when absent or left half-made by an interrupted run. */
export function ensureDebianRoot(log: (line: string) => void = () => undefined): string {
  const name = `${SUITE}-minbase-${INCLUDE.join("-")}`;
  const dir = path.join(cacheDir, name);
  const marker = `${dir}.complete`;
  if (fs.existsSync(marker) && fs.existsSync(path.join(dir, "usr/bin/curl"))) return dir;
  fs.mkdirSync(cacheDir, { recursive: true });
  const tmp = `${dir}.partial`;
  fs.rmSync(tmp, { recursive: true, force: true });
  fs.rmSync(dir, { recursive: true, force: true });
  const mirror = debianMirror();
  const args = ["--variant=minbase", `--include=${INCLUDE.join(",")}`, SUITE, tmp, mirror];
  log(`debootstrap ${args.join(" ")}`);
  const r = spawnSync("debootstrap", args, { encoding: "utf8", env: { ...process.env, PATH: `${process.env.PATH}:${ROOT_PATH}` } });
  if (r.error || r.status !== 0) {
    throw new Error(`debootstrap failed (${r.error?.message ?? `exit ${r.status}`}); install it with scripts/install-system-deps.sh:\n${(r.stderr ?? "").slice(-2000)}`);
  }
  fs.renameSync(tmp, dir);
  fs.writeFileSync(marker, `debootstrap ${args.join(" ")}\n`);
  return dir;
}

export interface Overlay {
  dir: string;
  remove(): void;
}

/** A writable view of `lower` (overlayfs); remove() unmounts it and deletes what was written. */
export function mountOverlay(lower: string): Overlay {
  // A run killed before its clean-up left its overlay mounted: the suite runs one test at a time,
  // so any run-* here is such a leftover.
  for (const old of fs.readdirSync(cacheDir).filter((d) => d.startsWith("run-"))) {
    spawnSync("umount", ["--lazy", path.join(cacheDir, old, "merged")]);
    fs.rmSync(path.join(cacheDir, old), { recursive: true, force: true });
  }
  const base = fs.mkdtempSync(path.join(cacheDir, "run-"));
  const [upper, work, dir] = ["upper", "work", "merged"].map((d) => path.join(base, d)) as [string, string, string];
  for (const d of [upper, work, dir]) fs.mkdirSync(d);
  const r = spawnSync("mount", ["-t", "overlay", "overlay", "-o", `lowerdir=${lower},upperdir=${upper},workdir=${work}`, dir], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`mount overlay: ${r.stderr}`);
  return {
    dir,
    remove() {
      spawnSync("umount", ["--lazy", dir]);
      fs.rmSync(base, { recursive: true, force: true });
    },
  };
}

/**
 * The shell line that enters the root: a private mount namespace (the /proc, /sys and /dev mounts
 * vanish with it, whatever happens to the test) and its own pid namespace (its processes die with
 * it), then chroot. `--kill-child` hands the signal unshare gets to the process inside.
 */
function enterArgs(dir: string, command: string[], opts: { user?: string }): string[] {
  const chroot = ["chroot", ...(opts.user ? [`--userspec=${opts.user}`] : []), dir];
  const script = `mount -t proc proc "$R/proc" && mount --rbind /sys "$R/sys" && mount --rbind /dev "$R/dev" && exec "$@"`;
  return ["--mount", "--propagation", "private", "--pid", "--fork", "--kill-child=SIGTERM", "--", "sh", "-c", script, "sh", ...chroot, ...command];
}

const rootEnv = (dir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({ PATH: ROOT_PATH, HOME: "/root", LANG: "C.UTF-8", R: dir, ...extra }) as unknown as NodeJS.ProcessEnv;

/** Runs a command inside the root and waits for it. */
export function runInRoot(dir: string, command: string[], opts: { user?: string; env?: Record<string, string>; timeoutMs?: number } = {}) {
  const r = spawnSync("unshare", enterArgs(dir, command, opts), { encoding: "utf8", env: rootEnv(dir, opts.env), timeout: opts.timeoutMs ?? 120_000 });
  return { code: r.status, out: `${r.stdout ?? ""}${r.stderr ?? ""}`, error: r.error };
}

/** Starts a long-running command inside the root (an agent). */
export function startInRoot(dir: string, command: string[], opts: { user?: string; env?: Record<string, string> } = {}) {
  const child: ChildProcess = spawn("unshare", enterArgs(dir, command, opts), { env: rootEnv(dir, opts.env), stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (out += d.toString()));
  return {
    child,
    output: () => out,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const kill = setTimeout(() => child.kill("SIGKILL"), 20_000);
        child.once("exit", () => {
          clearTimeout(kill);
          resolve();
        });
        child.kill("SIGTERM");
      }),
  };
}
