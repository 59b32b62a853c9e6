// Test helper run as its own process: streams numbered lines into a spool while the server is
// unreachable, then waits to be killed with SIGKILL (the spool-replay test's "agent crash").
import { memoryLogger } from "../logger";
import { LogStreamer } from "../log-streamer";
import { HttpError } from "../http-client";
import { RunSpool } from "../spool";

const [spoolRoot, runId, lines] = process.argv.slice(2);
if (!spoolRoot || !runId) throw new Error("usage: crash-writer SPOOL_ROOT RUN_ID LINES");
const spool = RunSpool.create(spoolRoot, { runId, hostId: "host-a", probe: "dd", target: null, startedAt: new Date().toISOString() });
const streamer = new LogStreamer(runId, spool, {
  upload: async () => {
    throw new HttpError("network", null, "ECONNREFUSED");
  },
  finish: async () => undefined,
  log: memoryLogger(),
  rejectedRoot: `${spoolRoot}-rejected`,
});
let i = 0;
const timer = setInterval(() => {
  streamer.write(`line ${i}\n`);
  if (++i === Number(lines)) {
    clearInterval(timer);
    // past the ~100 ms sealing window, so every line is in the spool
    setTimeout(() => process.stdout.write("ready\n"), 300);
  }
}, 2);
setInterval(() => undefined, 60_000);
