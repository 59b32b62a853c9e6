// A run's profile snapshot as the agent collects it, from the captured machine of
// probes/profile/fixtures (Debian 12 VM, ext4 on virtio vda) rebuilt as files and canned tool
// output: the trends tests start from a real snapshot and change one fact at a time.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { collectTargetProfile, type ProfileSources } from "../../../probes/profile/collect-host";
import type { RunProfileSnapshot } from "../../../probes/profile/types";

const fixtures = path.join(__dirname, "../../../probes/profile/fixtures");
const fixture = (name: string) => readFileSync(path.join(fixtures, name), "utf8");

/** The captured machine's snapshot for target "/" (collected once per call, in a temp tree). */
export async function fixtureSnapshot(): Promise<RunProfileSnapshot> {
  const root = mkdtempSync(path.join(os.tmpdir(), "probebook-trends-"));
  const put = (rel: string, text: string) => {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), text);
  };
  try {
    put("proc/meminfo", fixture("sysinfo-meminfo-full.txt"));
    for (const line of fixture("sysinfo-sysctl-vm.txt").trim().split("\n")) {
      const [key, value] = line.split(" = ");
      if (key && value) put(`proc/sys/${key.replace(".", "/")}`, `${value}\n`);
    }
    put("sys/kernel/mm/transparent_hugepage/enabled", fixture("sysinfo-thp-enabled.txt"));
    put("sys/kernel/mm/transparent_hugepage/defrag", fixture("sysinfo-thp-defrag.txt"));
    put("sys/block/vda/queue/scheduler", "none [mq-deadline] kyber bfq \n");
    put("etc/os-release", fixture("os-release.txt"));
    const canned: Record<string, string> = { lscpu: fixture("sysinfo-lscpu.json"), lsblk: fixture("sysinfo-lsblk-bytes.json"), findmnt: fixture("sysinfo-findmnt.json") };
    const src: ProfileSources = { procRoot: path.join(root, "proc"), sysRoot: path.join(root, "sys"), osReleaseFiles: [path.join(root, "etc/os-release")], run: async (file) => canned[file] ?? null };
    const snap = await collectTargetProfile("/", src);
    // os.release() is this machine's: pin the kernel so the tests read the same everywhere.
    return { ...snap, kernel: { release: "6.1.0-25-amd64", version: "#1 SMP PREEMPT_DYNAMIC Debian 6.1.106-3" } };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** The same host after an upgrade: another kernel and a changed sysctl. */
export function upgraded(snap: RunProfileSnapshot, kernel: string, sysctls: Record<string, string>): RunProfileSnapshot {
  return { ...snap, kernel: { ...snap.kernel, release: kernel }, sysctls: { ...snap.sysctls, ...sysctls } };
}
