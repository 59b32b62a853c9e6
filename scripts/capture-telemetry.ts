// Records the agent's telemetry while a command runs, for diagnosis fixtures made on a real
// machine: `npx tsx scripts/capture-telemetry.ts OUT.json DIR -- command args…`.
// The samples (one per second, the target's device from DIR) and the command line are written
// to OUT.json. Nothing here runs in the app; it documents how the fixtures were made.
import { spawn } from "node:child_process";
import fs from "node:fs";
import { TelemetrySampler } from "../probes/telemetry/sampler";
import { deviceOfDirectory } from "../probes/telemetry/target-device";
import type { TelemetrySample } from "../probes/telemetry/types";

async function main() {
  const [out, dir, sep, ...command] = process.argv.slice(2);
  if (!out || !dir || sep !== "--" || command.length === 0) {
    console.error("usage: capture-telemetry OUT.json DIR -- command [args…]");
    process.exit(2);
  }
  const device = await deviceOfDirectory(dir);
  const sampler = new TelemetrySampler({ device });
  await sampler.start();
  const samples: TelemetrySample[] = [];
  const timer = setInterval(() => {
    void sampler.sample().then((s) => s && samples.push(s));
  }, 1000);
  const child = spawn(command[0] as string, command.slice(1), { stdio: ["ignore", "inherit", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  clearInterval(timer);
  const last = await sampler.sample();
  if (last) samples.push(last);
  fs.writeFileSync(out, JSON.stringify({ command: command.join(" "), device, exitCode: code, stderr, samples }, null, 1) + "\n");
  console.log(`${samples.length} samples of ${device ?? "no device"} → ${out}`);
}

void main();
