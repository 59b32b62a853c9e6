// What the agent's once-a-second telemetry costs: CPU time per sample of the /proc and /sys
// reader, taken over many samples of the real kernel files, expressed as % of one core at one
// sample per second. Prints a table and writes bench/results/telemetry-cost.json.
//   npx tsx bench/telemetry-cost.ts [--samples 2000] [--dir PATH]
import fs from "node:fs";
import path from "node:path";
import { TelemetrySampler } from "../probes/telemetry/sampler";
import { deviceOfDirectory } from "../probes/telemetry/target-device";

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] ?? fallback) : fallback;
}

async function main() {
  const samples = Number(arg("samples", "2000"));
  const dir = path.resolve(arg("dir", "."));
  const device = await deviceOfDirectory(dir);
  const sampler = new TelemetrySampler({ device });
  await sampler.start();
  for (let i = 0; i < 50; i++) await sampler.sample(); // warm-up: JIT, file cache
  const cpu0 = process.cpuUsage();
  const wall0 = performance.now();
  for (let i = 0; i < samples; i++) await sampler.sample();
  const cpu = process.cpuUsage(cpu0);
  const wallMs = performance.now() - wall0;
  const cpuMsPerSample = (cpu.user + cpu.system) / 1000 / samples;
  // At one sample a second, CPU ms per second / 1000 ms = share of one core.
  const pctCoreAt1Hz = cpuMsPerSample / 10;
  const result = {
    at: new Date().toISOString(),
    device,
    samples,
    cpuMsPerSample: Number(cpuMsPerSample.toFixed(3)),
    wallMsPerSample: Number((wallMs / samples).toFixed(3)),
    pctCoreAt1Hz: Number(pctCoreAt1Hz.toFixed(3)),
    target: "≤ 1 % of one core for the whole agent with telemetry on",
  };
  console.log("| figure | value |\n|---|---|");
  console.log(`| device sampled | ${device ?? "none (tmpfs)"} |`);
  console.log(`| CPU per sample | ${result.cpuMsPerSample} ms |`);
  console.log(`| telemetry at 1 Hz | ${result.pctCoreAt1Hz} % of one core |`);
  const out = path.join(import.meta.dirname, "results", "telemetry-cost.json");
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, JSON.stringify(result, null, 2) + "\n");
}

void main();
