// Records the agent's telemetry while a command runs, for diagnosis fixtures made on a real
// machine: `npx tsx scripts/capture-telemetry.ts [--sysctl vm.x=N]… OUT.json DIR -- command args…`.
// The samples (one per second, the target's device from DIR) and the command line are written
// to OUT.json. Nothing here runs in the app; it documents how the fixtures were made.
//
// --sysctl sets a kernel knob only for the command's duration and puts it back in `finally`
// (other users of the machine read these knobs too, so the change must be short and undone even
// when the command fails). Writing vm.dirty_bytes zeroes vm.dirty_ratio in the kernel and the
// other way round (Documentation/admin-guide/sysctl/vm.rst, dirty_bytes), and the background pair
// alike: the original of whichever of a pair was in force (non-zero) is what gets written back.
import { spawn } from "node:child_process";
import fs from "node:fs";
import { TelemetrySampler } from "../probes/telemetry/sampler";
import { deviceOfDirectory } from "../probes/telemetry/target-device";
import type { TelemetrySample } from "../probes/telemetry/types";

const procPath = (name: string) => `/proc/sys/${name.replaceAll(".", "/")}`;
const read = (name: string) => fs.readFileSync(procPath(name), "utf8").trim();
const write = (name: string, value: string) => fs.writeFileSync(procPath(name), `${value}\n`);

const PAIRS: Record<string, string> = {
  "vm.dirty_ratio": "vm.dirty_bytes",
  "vm.dirty_bytes": "vm.dirty_ratio",
  "vm.dirty_background_ratio": "vm.dirty_background_bytes",
  "vm.dirty_background_bytes": "vm.dirty_background_ratio",
};

/** Sets each knob and returns the function that puts every one back (companions included). */
function setSysctls(settings: [string, string][]): () => void {
  const names = [...new Set(settings.flatMap(([n]) => (PAIRS[n] ? [n, PAIRS[n]] : [n])))];
  const originals = new Map(names.map((n) => [n, read(n)]));
  const restore = () => {
    for (const n of names) {
      const original = originals.get(n) as string;
      // Of a ratio/bytes pair only the one in force is written back; writing it zeroes the other.
      if (PAIRS[n] && original === "0") continue;
      write(n, original);
    }
  };
  try {
    for (const [n, v] of settings) write(n, v);
  } catch (e) {
    restore();
    throw e;
  }
  return restore;
}

async function main() {
  const args = process.argv.slice(2);
  const settings: [string, string][] = [];
  while (args[0] === "--sysctl") {
    const [name, value] = (args[1] ?? "").split("=");
    if (!name || value === undefined) throw new Error("--sysctl wants name=value");
    settings.push([name, value]);
    args.splice(0, 2);
  }
  const [out, dir, sep, ...command] = args;
  if (!out || !dir || sep !== "--" || command.length === 0) {
    console.error("usage: capture-telemetry [--sysctl name=value]… OUT.json DIR -- command [args…]");
    process.exit(2);
  }
  const device = await deviceOfDirectory(dir);
  const sampler = new TelemetrySampler({ device });
  await sampler.start();
  const samples: TelemetrySample[] = [];
  const restore = setSysctls(settings);
  let code: number | null = null;
  let stderr = "";
  const timer = setInterval(() => {
    void sampler.sample().then((s) => s && samples.push(s));
  }, 1000);
  try {
    const child = spawn(command[0] as string, command.slice(1), { stdio: ["ignore", "inherit", "pipe"] });
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    code = await new Promise<number | null>((resolve, reject) => {
      child.on("exit", resolve);
      child.on("error", reject);
    });
  } finally {
    restore();
    clearInterval(timer);
  }
  const last = await sampler.sample();
  if (last) samples.push(last);
  const sysctls = Object.fromEntries(settings);
  fs.writeFileSync(out, JSON.stringify({ command: command.join(" "), device, sysctls, exitCode: code, stderr, samples }, null, 1) + "\n");
  console.log(`${samples.length} samples of ${device ?? "no device"} → ${out}`);
}

void main();
