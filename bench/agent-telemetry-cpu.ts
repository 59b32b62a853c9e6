// The agent's CPU while a probe runs, with telemetry on (the default: one sample a second of cpu,
// the target's device, memory and paging, spooled and uploaded with the output) and, beside it,
// with --no-telemetry. A real agent process runs a real sar probe (20 s) through a real server;
// the figure is the agent's own utime + stime over the run's active window (bench/lib/agent-cpu.ts).
//   npx tsx bench/agent-telemetry-cpu.ts [--build | --stale-build] [--rounds 2]
import path from "node:path";
import { parseArgs } from "node:util";
import { createOperatorToken, UserApi } from "./lib/api";
import { bundleAgent, measureAgentCpu, type AgentCpuResult } from "./lib/agent-cpu";
import { cleanupAll, cleanupOnSignals, onCleanup } from "./lib/cleanup";
import { root, startMainServer } from "./lib/server";
import fs from "node:fs";

const PORT = 3312;
const DATA_DIR = path.join(root, ".data", "bench-telemetry");
const TARGET_PCT = 1;

async function main() {
  const { values: flags } = parseArgs({ options: { build: { type: "boolean" }, "stale-build": { type: "boolean" }, rounds: { type: "string" } } });
  const rounds = Number(flags.rounds ?? 2);
  cleanupOnSignals();
  onCleanup("bench data dir", () => fs.rmSync(DATA_DIR, { recursive: true, force: true }));
  const server = await startMainServer({ port: PORT, dataDir: DATA_DIR, ifStale: flags.build ? "build" : flags["stale-build"] ? "serve" : "refuse" });
  const user = new UserApi(server.url, await createOperatorToken(server.databaseUrl));
  const bundle = await bundleAgent();
  const results: AgentCpuResult[] = [];
  // Alternating on/off, so a machine that gets busier or quieter over time does not favour one side.
  for (let r = 0; r < rounds; r++) {
    for (const telemetry of r % 2 === 0 ? [true, false] : [false, true]) {
      results.push(await measureAgentCpu({ user, serverUrl: server.url, variant: "bundle", bundle, scratchParent: DATA_DIR, telemetry }));
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
  console.log("\nagent CPU while a 20 s sar probe runs (bundled agent), % of one core, RUNNING→end:");
  for (const a of results) {
    console.log(
      `  telemetry ${a.telemetry ? "on " : "off"}: ${a.cpuPctOfCore.toFixed(2)} % (streaming only ${a.streamingCpuPctOfCore.toFixed(2)} %), ` +
        `${a.telemetrySamples} samples, ${a.chunksStreamed} chunks, window ${a.windowSec.toFixed(1)} s, status ${a.runStatus}`,
    );
  }
  const on = median(results.filter((a) => a.telemetry).map((a) => a.cpuPctOfCore));
  const off = median(results.filter((a) => !a.telemetry).map((a) => a.cpuPctOfCore));
  console.log(`\nmedian with telemetry ${on.toFixed(2)} %, without ${off.toFixed(2)} %; target ≤ ${TARGET_PCT} % with telemetry: ${on <= TARGET_PCT ? "PASS" : "FAIL"}`);
}

main()
  .catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exitCode = 1;
  })
  .finally(() => cleanupAll());
