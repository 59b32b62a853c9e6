// Records a fio run exactly as the agent stores it, for the fio probe's fixtures: the command
// from probes/fio/command.ts, the agent's pty runner, then the agent's appended log files.
// `npx tsx scripts/capture-fio-live.ts OUT.log DIR '{"rw":"randrw","rwmixread":70,…}'`
// prints when each ETA line arrived (seconds after the start), to show the output is live.
import fs from "node:fs";
import path from "node:path";
import { appendCollectedFiles } from "../probes/agent/collect-files";
import { makeRunDir, removeRunDir } from "../probes/agent/run-dir";
import { startCommand } from "../probes/agent/pty-runner";
import { buildFioCommand } from "../probes/fio/command";
import { fioParamsSchema } from "../probes/fio/params";

async function main() {
  const [out, dir, json] = process.argv.slice(2);
  if (!out || !dir) {
    console.error("usage: capture-fio-live OUT.log DIR [PARAMS-JSON]");
    process.exit(2);
  }
  const params = fioParamsSchema.parse({ target: path.resolve(dir), ...(json ? (JSON.parse(json) as object) : {}) });
  const runDir = await makeRunDir(params.target);
  let log = "";
  const t0 = Date.now();
  const etaAt: string[] = [];
  try {
    const command = buildFioCommand(params, runDir);
    const run = startCommand(command, {
      target: params.target,
      onData: (text) => {
        log += text;
        const m = text.match(/\[\d+\.\d%\]/g);
        if (m) etaAt.push(`${((Date.now() - t0) / 1000).toFixed(1)} s ${m.join(" ")}`);
      },
    });
    const outcome = await run.done;
    const files = await appendCollectedFiles(command, (text) => (log += text));
    fs.writeFileSync(out, log);
    console.log(`exit ${outcome.exitCode} after ${outcome.durationMs} ms; ${files.length} files appended: ${files.join(", ")}`);
    console.log(`fio ${command.args.join(" ")}`);
    for (const e of etaAt) console.log(`  ETA at ${e}`);
  } finally {
    await removeRunDir(runDir);
  }
}

void main();
