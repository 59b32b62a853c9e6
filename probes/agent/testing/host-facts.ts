// What the experiment tests read back from the real host: sysctls, mounts, loop devices. Test-only.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

export const sysctl = (name: string) => execFileSync("sysctl", ["-n", name], { encoding: "utf8" }).trim();
export const setSysctl = (name: string, value: string) => execFileSync("sysctl", ["-q", "-w", `${name}=${value}`]);

/** Mount points at or under `dir`. */
export function mountsUnder(dir: string): string[] {
  return fs
    .readFileSync("/proc/self/mountinfo", "utf8")
    .split("\n")
    .map((l) => l.split(" ")[4] ?? "")
    .filter((m) => m === dir || m.startsWith(`${dir}/`));
}

/** Loop devices whose backing file lies under `dir`. */
export function loopsUnder(dir: string): string[] {
  return execFileSync("losetup", ["-a", "-O", "NAME,BACK-FILE", "-n", "--raw"], { encoding: "utf8" })
    .split("\n")
    .filter((l) => l.includes(` ${dir}/`))
    .map((l) => l.split(" ")[0] ?? "");
}

/** Lab and state dirs on the disk (not /tmp, which may be tmpfs), under the project's data dir. */
export function diskDir(prefix: string, made: string[]): string {
  const base = path.join(process.cwd(), ".data", "arm-tests");
  fs.mkdirSync(base, { recursive: true });
  const d = fs.realpathSync(fs.mkdtempSync(path.join(base, prefix)));
  made.push(d);
  return d;
}

/** The sysctls the experiment tests change, read before they start, to be put back whatever happens. */
export function snapshotSysctls(names: readonly string[]): () => void {
  const before = names.map((n) => [n, sysctl(n)] as const);
  return () => {
    // The ratio first, then a non-zero bytes value: that order gives back exactly the pair in force.
    for (const [n, v] of before) if (!n.endsWith("_bytes")) setSysctl(n, v);
    for (const [n, v] of before) if (n.endsWith("_bytes") && v !== "0") setSysctl(n, v);
  };
}
