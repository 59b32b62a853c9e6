import { version } from "../package.json";
import { compareCommand, COMPARE_HELP } from "./commands/compare";
import { exportCommand, EXPORT_HELP } from "./commands/export";
import { cancelCommand, CANCEL_HELP, followCommand, FOLLOW_HELP } from "./commands/follow-cancel";
import { loginCommand, LOGIN_HELP } from "./commands/login";
import { runCommand, RUN_HELP } from "./commands/run";
import { runsCommand, RUNS_HELP } from "./commands/runs-list";
import { scheduleCommand, SCHEDULE_HELP } from "./commands/schedule";
import { alertsCommand, ALERTS_HELP, seriesCommand, SERIES_HELP } from "./commands/series";
import { sweepCommand, SWEEP_HELP } from "./commands/sweep";
import { CliError, EXIT } from "./exit-codes";
import { terminalText } from "./terminal-text";

const HELP = `probebook — launch, follow, list, export and compare Probebook runs over its HTTP API

Commands:
  probebook login     save the server and your API token (asked for, not shown) in the config file
  probebook run       launch a probe and (with --wait) follow it; exit code = its outcome
  probebook follow    follow a run already queued or running; exit code = its outcome
  probebook cancel    cancel a queued or running run
  probebook runs list list runs (filter by host, tag, probe, status)
  probebook export    one run as JSON or CSV
  probebook compare   runs side by side, or a share link with --share
  probebook schedule  create, list, show, pause, resume or delete schedules (a preset on hosts, by interval or cron)
  probebook series    series (one host, probe and parameters over time): list, show
  probebook alerts    regression and improvement alerts
  probebook sweep     a fio workload over a queue depth × jobs grid: create, show (points and saturation)

Connection: \`probebook login --server URL\` once (it asks for an API token from Settings → API
tokens and saves both in ~/.config/probebook/config.json, mode 0600); or set PROBEBOOK_SERVER and
PROBEBOOK_TOKEN. --server URL overrides the server for one command.
\`probebook <command> --help\` for details.

Text that comes from the server or an agent (run output, errors, names, tables) is printed
without escape sequences or control characters, so that it cannot drive your terminal (set its
title, write the clipboard, clear the screen). \`--raw\` (run, export, compare) prints run output
and exports exactly as stored; --json output escapes them instead.

probebook --version prints this CLI's version.

${LOGIN_HELP}

${RUN_HELP}

${FOLLOW_HELP}

${CANCEL_HELP}

${RUNS_HELP}

${EXPORT_HELP}

${COMPARE_HELP}

${SCHEDULE_HELP}

${SERIES_HELP}

${ALERTS_HELP}

${SWEEP_HELP}`;

const COMMANDS: Record<string, (argv: string[]) => Promise<number>> = {
  login: loginCommand,
  run: runCommand,
  follow: followCommand,
  cancel: cancelCommand,
  runs: runsCommand,
  export: exportCommand,
  compare: compareCommand,
  schedule: scheduleCommand,
  series: seriesCommand,
  alerts: alertsCommand,
  sweep: sweepCommand,
};

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === "help" || command === "--help" || command === "-h") {
    process.stdout.write(`${HELP}\n`);
    return command === undefined ? EXIT.USAGE : EXIT.OK;
  }
  if (command === "--version" || command === "-V" || command === "version") {
    process.stdout.write(`probebook ${version}\n`);
    return EXIT.OK;
  }
  const handler = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  if (!handler) {
    process.stderr.write(`probebook: unknown command "${terminalText(command, { oneLine: true })}". Commands: ${Object.keys(COMMANDS).join(", ")} (probebook --help).\n`);
    return EXIT.USAGE;
  }
  try {
    return await handler(rest);
  } catch (err) {
    if (err instanceof CliError) {
      // Its message may quote the server (an error body, a host's name): printable text only.
      process.stderr.write(`probebook: ${terminalText(err.message)}\n`);
      return err.exitCode;
    }
    process.stderr.write(`probebook: ${terminalText(err instanceof Error ? (err.stack ?? err.message) : String(err))}\n`);
    return EXIT.UNREACHABLE;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  () => {
    process.exitCode = EXIT.UNREACHABLE;
  },
);
