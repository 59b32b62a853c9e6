// The pty hop alone: the agent's own pty runner (probes/agent/pty-runner.ts) runs a tiny node
// printer that stamps each line; the delay to onData is what a pty adds before the streamer.
// node is started by argv, no shell, like every probe.
import os from "node:os";
import { startCommand } from "../../probes/agent/pty-runner";
import { nowMs, summarize, type Summary } from "./stats";

const PRINTER = `let n = 0; const t = setInterval(() => {
  process.stdout.write("pty " + (performance.timeOrigin + performance.now()).toFixed(3) + "\\n");
  if (++n >= Number(process.argv[1])) clearInterval(t);
}, 20);`;

export async function measurePtyHop(lines = 100): Promise<{ latencyMs: Summary; lines: number; exitCode: number | null }> {
  const samples: number[] = [];
  let buf = "";
  const cmd = startCommand(
    { file: process.execPath, args: ["-e", PRINTER, String(lines)], env: {}, cwd: os.tmpdir(), timeoutSec: 30 },
    {
      target: os.tmpdir(),
      onData: (text) => {
        const at = nowMs();
        buf += text;
        let nl: number;
        while ((nl = buf.indexOf("\n")) >= 0) {
          const m = /pty (\d+\.\d+)/.exec(buf.slice(0, nl));
          buf = buf.slice(nl + 1);
          if (m) samples.push(at - Number(m[1]));
        }
      },
    },
  );
  const outcome = await cmd.done;
  return { latencyMs: summarize(samples), lines: samples.length, exitCode: outcome.exitCode };
}
