import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { startAgent as startAgentProcess, type AgentHandle } from "../agent/agent-process";

const run = promisify(execFile);
export const root = path.resolve(__dirname, "..", "..");

export type Agent = AgentHandle;

/** A real agent (the same entry as `npm run agent`) allowed to write in exactly `allow`. */
export function startAgent(server: string, token: string, allow: string[]): Agent {
  return startAgentProcess({ server, token, allow, scratch: allow[0] });
}

export interface LoopFs {
  fsType: "ext3" | "ext4" | "xfs";
  image: string;
  mountPoint: string;
}

const MKFS: Record<LoopFs["fsType"], [string, string[]]> = {
  ext3: ["mkfs.ext3", ["-F", "-q"]],
  ext4: ["mkfs.ext4", ["-F", "-q"]],
  xfs: ["mkfs.xfs", ["-f", "-q"]],
};

/** A 512 MiB image file with a fresh file system, loop-mounted under `base` (needs root). */
export async function mountLoopFs(base: string, fsType: LoopFs["fsType"]): Promise<LoopFs> {
  const image = path.join(base, `${fsType}.img`);
  const mountPoint = path.join(base, fsType);
  fs.mkdirSync(mountPoint, { recursive: true });
  await run("truncate", ["-s", "512M", image]);
  const [mkfs, flags] = MKFS[fsType];
  await run(mkfs, [...flags, image]);
  await run("mount", ["-o", "loop", image, mountPoint]);
  return { fsType, image, mountPoint };
}

/** Unmounts, detaches the loop device if mount left it attached, removes the files; never throws. */
export async function unmountLoopFs(l: LoopFs): Promise<string[]> {
  const problems: string[] = [];
  await run("umount", [l.mountPoint]).catch((e: Error) => problems.push(`umount ${l.mountPoint}: ${e.message}`));
  const attached = await run("losetup", ["-j", l.image]).then((r) => r.stdout.trim(), () => "");
  for (const line of attached.split("\n").filter(Boolean)) {
    const dev = line.split(":")[0]!;
    await run("losetup", ["-d", dev]).catch((e: Error) => problems.push(`losetup -d ${dev}: ${e.message}`));
  }
  fs.rmSync(l.image, { force: true });
  fs.rmSync(l.mountPoint, { recursive: true, force: true });
  return problems;
}
