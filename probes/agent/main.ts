// Entry point: `PROBEBOOK_AGENT_TOKEN=TOKEN npm run agent -- --server URL --allow DIR` or, bundled,
// `node probebook-agent.cjs …`.
import os from "node:os";
import { parseCli } from "./cli";
import { installToolsHere } from "./install-tools";
import { logSettingsFrom } from "../core/log-settings";
import { createLogger } from "./logger";
import { StopSignals } from "./stop-signals";

async function main(): Promise<number> {
  const cli = parseCli(process.argv.slice(2), process.env, os.homedir());
  if (cli.kind === "help") {
    process.stdout.write(`${cli.text}\n`);
    return 0;
  }
  if (cli.kind === "install-tools") return installToolsHere({ lab: cli.lab });
  if (cli.kind === "error") {
    process.stderr.write(`probebook-agent: ${cli.message}\nTry --help.\n`);
    return 2;
  }
  const { options } = cli;
  const logSettings = logSettingsFrom(process.env);
  if ("error" in logSettings) {
    process.stderr.write(`probebook-agent: ${logSettings.error}\n`);
    return 2;
  }
  const log = createLogger({ quiet: options.quiet, settings: logSettings });
  let labDir: string | null = null;
  if (options.lab) {
    // Refused here, before anything else: a lab that cannot work must not be half-offered.
    const { checkLabDir } = await import("../lab/lab");
    const lab = await checkLabDir(options.lab);
    if (!lab.ok) {
      process.stderr.write(`probebook-agent: ${lab.error}\n`);
      return 2;
    }
    labDir = lab.dir;
    for (const dev of options.labDevices) {
      // Only that it is a block device now; whether it is in use is checked before each arm.
      const isBlock = await import("node:fs/promises").then((f) => f.stat(dev)).then((st) => st.isBlockDevice(), () => false);
      if (!isBlock) {
        process.stderr.write(`probebook-agent: --lab-device ${dev} is not a block device\n`);
        return 2;
      }
    }
  }
  // Loaded after the arguments are checked, so that --help and argument errors work on a host
  // where node-pty (a native module) is not installed yet.
  let Agent: typeof import("./agent").Agent;
  try {
    ({ Agent } = await import("./agent"));
  } catch (err) {
    const missing = err instanceof Error && /node-pty/.test(err.message);
    log.error(missing ? "node-pty is missing: run `npm install --omit=dev` next to probebook-agent.cjs (needs python3, make, g++)" : String(err));
    return 1;
  }
  const agent = new Agent(
    {
      server: options.server,
      token: options.token,
      allowDirs: options.allow,
      stateDir: options.stateDir,
      once: options.once,
      history: options.history,
      labDir,
      labDevices: options.labDevices,
      allowTunables: options.allowTunables,
      telemetry: options.telemetry,
      transport: options.transport,
    },
    { log },
  );
  // One Ctrl-C arrives more than once (the terminal's group, npm's relay): copies count as one.
  const stops = new StopSignals();
  for (const sig of ["SIGINT", "SIGTERM"] as const) {
    process.on(sig, () => {
      const action = stops.receive();
      if (action === "copy") return;
      if (action === "now") {
        // A deliberate second request: the spool keeps whatever was not delivered.
        log.warn(`${sig} again: exiting at once; the running probe is stopped, undelivered output stays in the spool and is sent at the next start`);
        void agent.stopProbeNow().finally(() => process.exit(130));
        return;
      }
      agent.drain(`${sig} received`, options.stopGraceSec * 1000);
    });
  }
  const exit = await agent.run();
  if (exit.code === 0) log.info(exit.message);
  else log.error(exit.message);
  return exit.code;
}

// process.exit rather than exitCode: idle keep-alive sockets must not hold a stopped agent
// open. Everything that matters is in the spool by now, and stderr writes are synchronous.
main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`probebook-agent: unexpected failure: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
