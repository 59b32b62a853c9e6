import { readFileSync, realpathSync, statSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { historyProbe, probeIds } from "../catalog";
import { parseAllowTunables, TUNABLE_NAMES } from "../tunables/catalogue";
import { AGENT_TRANSPORTS, type AgentTransport } from "./http-client";
import { AGENT_VERSION } from "./version";


/** Where `--history` without a DIR looks: the history probe's default directories. */
const HISTORY_DIRS: readonly string[] = historyProbe()?.history?.defaultDirs ?? [];
export interface CliOptions {
  server: string;
  token: string | null;
  /** Real (symlink-free) absolute paths, without duplicates. */
  allow: string[];
  stateDir: string;
  once: boolean;
  quiet: boolean;
  /** `--lab DIR` as given (absolute); main.ts checks it with checkLabDir before the agent starts. */
  lab: string | null;
  /** `--lab-device DEV` (absolute paths): whole block devices an experiment may format; needs --lab. */
  labDevices: string[];
  /** Catalogue names from `--allow-tunable`; vm.drop_caches among them allows cache drops. */
  allowTunables: string[];
  /** --history: sysstat dirs to upload finished days from (real paths, or the defaults); null without it. */
  history: string[] | null;
  /** Sample the machine once a second while a probe runs (--no-telemetry turns it off). */
  telemetry: boolean;
  /** --transport: how requests reach the server (default auto). */
  transport: AgentTransport;
  /** --stop-grace: how long a stop lets the running probe finish before it is cancelled. */
  stopGraceSec: number;
}

/** How long a SIGINT/SIGTERM lets the running probe finish by default. */
export const DEFAULT_STOP_GRACE_SEC = 60;

export type CliResult =
  | { kind: "run"; options: CliOptions }
  | { kind: "help"; text: string }
  | { kind: "install-tools"; lab: boolean }
  | { kind: "error"; message: string };

/** The catalogue's names, wrapped to the help text's column. */
const TUNABLE_LIST = TUNABLE_NAMES.reduce<string[]>((lines, name, i) => {
  const item = `${name}${i < TUNABLE_NAMES.length - 1 ? "," : ""}`;
  const last = lines.at(-1) ?? "";
  if (last && last.length + item.length + 1 <= 70) lines[lines.length - 1] = `${last} ${item}`;
  else lines.push(item);
  return lines;
}, []).join(`\n${" ".repeat(21)}`);

export const HELP = `probebook-agent ${AGENT_VERSION} — runs Probebook's storage probes (${probeIds.join(", ")}) on this host

Usage:
  PROBEBOOK_AGENT_TOKEN=TOKEN probebook-agent --server URL --allow DIR[,DIR…] [options]
  probebook-agent --install-tools [--lab DIR]    (as root: install the missing probe tools,
                     and with --lab the lab's mkfs.ext4, mkfs.xfs and mkfs.btrfs, then exit)

Options:
  --server URL       the Probebook dashboard, e.g. https://probebook.example.com
  --token-file FILE  read the registration token from FILE (first start only)
  --token TOKEN      the token on the command line: other users can read it in ps, so
                     prefer PROBEBOOK_AGENT_TOKEN (environment) or --token-file
  --allow DIR        directory probes may write in; repeat or separate with commas
  --state-dir DIR    credential and output spool (default: $PROBEBOOK_AGENT_STATE_DIR
                     or ~/.local/state/probebook-agent)
  --lab DIR          experiments may make loop-mounted file systems (ext2/3/4, xfs, btrfs)
                     as image files under DIR and run their probes there; needs root and a
                     local file system with room; everything made is taken down after each
                     run, and at the next start after a crash. Images are attached with
                     direct I/O when the file system under DIR allows it (else buffered,
                     and each run's record says so)
  --lab-device DEV[,DEV…]
                     DESTROYS ALL DATA ON DEV: an experiment may ask for its lab arms to run
                     on this whole block device instead of an image, one arm after another,
                     mkfs each time. Refused at each arm while DEV or a partition of it is
                     mounted, held (dm, md), swap or a volume manager's member. Needs --lab
                     (the mount point lives there); repeatable
  --allow-tunable NAME[,NAME…]
                     experiments may change these kernel settings for the duration of a run
                     and put them back afterwards; repeatable. vm.drop_caches lets
                     arms drop the page cache (sync, then 3 > drop_caches) before a probe.
                     names:
                     ${TUNABLE_LIST}
  --history [DIR]    upload this host's sysstat history: every finished day of the daily
                     files (saDD, saYYYYMMDD) in DIR, or in ${HISTORY_DIRS.join(" and ")}
                     without DIR, read with the host's own tools; checked at start, then hourly.
                     Today's file waits until the day is over. Repeat for more dirs
  --transport MODE   how the agent talks to the server: auto (default: one WebSocket,
                     GET /api/agent/socket, on which the server hands out jobs at once;
                     plain HTTP when the server has none), socket (the WebSocket only;
                     a server without it is an error) or http (HTTP requests only, e.g.
                     behind a proxy that does not pass WebSockets)
  --stop-grace SECONDS
                     on SIGINT or SIGTERM the agent claims nothing more and lets the
                     running probe finish for up to SECONDS (default ${DEFAULT_STOP_GRACE_SEC}; 0: cancel it
                     at once), then cancels it; its output and finish are delivered
                     before it exits. Copies of the signal within half a second (the
                     terminal, npm and a shell all pass on one Ctrl-C) count as one; a
                     second Ctrl-C after that stops the probe (within 2 s) and exits at
                     once, leaving what was not delivered in the spool, sent at the next
                     start
  --once             run one job, then exit
  --quiet            log warnings and errors only
  --no-telemetry     do not sample cpu, the target's device, memory and paging once a
                     second while a probe runs (they are shown on the run's timeline)
  --install-tools    install the missing probe tools with this distribution's package
                     manager (root only), say what was done, and exit; with --lab also
                     the tools the lab makes file systems with (xfsprogs, btrfs-progs, …)
  --version          print the version
  -h, --help         show this help

Exit codes: 0 stopped, 1 failure, 2 bad arguments or state, 3 credential refused or revoked,
4 the server does not work with this agent's version (its message says how to upgrade),
130 a second stop request: exited at once.`;

function checkServer(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return `--server must be a URL such as https://probebook.example.com, not "${raw}"`;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return `--server must use http or https, not ${url.protocol.replace(/:$/, "")}`;
  if (url.username || url.password) return "--server must not carry a user name or password";
  if (url.search || url.hash) return "--server must not have a query or fragment";
  return null;
}

function checkDir(raw: string, flag = "--allow"): { dir: string } | { error: string } {
  const resolved = path.resolve(raw);
  let real: string;
  try {
    real = realpathSync(resolved);
  } catch {
    return { error: `${flag} ${raw}: no such directory` };
  }
  if (!statSync(real).isDirectory()) return { error: `${flag} ${raw}: not a directory` };
  if (!path.isAbsolute(real)) return { error: `${flag} ${raw}: not an absolute path` };
  return { dir: real };
}

/** `--history` takes an optional DIR: a bare one (last, or before another option) means the defaults. */
function bareHistoryToEmpty(argv: string[]): string[] {
  return argv.map((a, i) => (a === "--history" && (i + 1 >= argv.length || argv[i + 1]!.startsWith("-")) ? "--history=" : a));
}

function historyDirs(values: string[] | undefined): { dirs: string[] | null } | { error: string } {
  if (values === undefined) return { dirs: null };
  const raw = values.flatMap((v) => v.split(",")).map((d) => d.trim());
  if (raw.every((d) => d === "")) return { dirs: [...HISTORY_DIRS] };
  const dirs: string[] = [];
  for (const d of raw.filter(Boolean)) {
    const r = checkDir(d, "--history");
    if ("error" in r) return r;
    if (!dirs.includes(r.dir)) dirs.push(r.dir);
  }
  return { dirs };
}

/** Parses and checks the command line; every problem is one line that says what to change. */
export function parseCli(argv: string[], env: Readonly<Record<string, string | undefined>>, homeDir: string): CliResult {
  let values;
  try {
    ({ values } = parseArgs({
      args: bareHistoryToEmpty(argv),
      strict: true,
      allowPositionals: false,
      options: {
        server: { type: "string" },
        token: { type: "string" },
        "token-file": { type: "string" },
        allow: { type: "string", multiple: true },
        lab: { type: "string" },
        "lab-device": { type: "string", multiple: true },
        "allow-tunable": { type: "string", multiple: true },
        "state-dir": { type: "string" },
        transport: { type: "string" },
        "stop-grace": { type: "string" },
        once: { type: "boolean" },
        history: { type: "string", multiple: true },
        quiet: { type: "boolean" },
        "no-telemetry": { type: "boolean" },
        "install-tools": { type: "boolean" },
        version: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    }));
  } catch (err) {
    return { kind: "error", message: (err as Error).message.split("\n")[0] ?? "bad arguments" };
  }
  if (values.help) return { kind: "help", text: HELP };
  if (values.version) return { kind: "help", text: `probebook-agent ${AGENT_VERSION}` };
  if (values["install-tools"]) return { kind: "install-tools", lab: values.lab !== undefined };

  if (!values.server) return { kind: "error", message: "--server is required (the dashboard's URL)" };
  const serverError = checkServer(values.server);
  if (serverError) return { kind: "error", message: serverError };

  let fromFile: string | undefined;
  if (values["token-file"]) {
    try {
      fromFile = readFileSync(values["token-file"], "utf8").trim();
    } catch (err) {
      return { kind: "error", message: `--token-file ${values["token-file"]}: ${(err as NodeJS.ErrnoException).code ?? String(err)}` };
    }
  }
  const token = values.token ?? fromFile ?? env.PROBEBOOK_AGENT_TOKEN ?? null;
  if (token !== null && (token.length < 10 || token.length > 200)) {
    return { kind: "error", message: "--token does not look like a registration token (10 to 200 characters)" };
  }

  const rawDirs = (values.allow ?? []).flatMap((a) => a.split(",")).map((d) => d.trim()).filter(Boolean);
  if (rawDirs.length === 0) return { kind: "error", message: "--allow is required: the directories probes may write in" };
  const allow: string[] = [];
  for (const raw of rawDirs) {
    const r = checkDir(raw);
    if ("error" in r) return { kind: "error", message: r.error };
    if (!allow.includes(r.dir)) allow.push(r.dir);
  }

  const stateDir = path.resolve(values["state-dir"] ?? env.PROBEBOOK_AGENT_STATE_DIR ?? path.join(homeDir, ".local/state/probebook-agent"));
  if (allow.some((dir) => stateDir === dir || stateDir.startsWith(`${dir}/`))) {
    // Probes delete their scratch files there and fill it up: the credential does not belong in it.
    return { kind: "error", message: `--state-dir ${stateDir} must not be inside an --allow directory` };
  }
  const lab = values.lab ? path.resolve(values.lab) : null;
  if (lab && (stateDir === lab || stateDir.startsWith(`${lab}/`))) {
    return { kind: "error", message: `--state-dir ${stateDir} must not be inside the --lab directory` };
  }
  const labDevices = [...new Set((values["lab-device"] ?? []).flatMap((d) => d.split(",")).map((d) => d.trim()).filter(Boolean))];
  if (labDevices.length > 0 && !lab) return { kind: "error", message: "--lab-device needs --lab DIR too: the device's mount point is made there" };
  const relative = labDevices.find((d) => !path.isAbsolute(d));
  if (relative) return { kind: "error", message: `--lab-device ${relative}: give the device's absolute path (/dev/…)` };
  const tunables = parseAllowTunables(values["allow-tunable"] ?? []);
  if (!tunables.ok) return { kind: "error", message: `--allow-tunable: ${tunables.error}` };
  const history = historyDirs(values.history);
  if ("error" in history) return { kind: "error", message: history.error };
  const transport = values.transport ?? "auto";
  if (!(AGENT_TRANSPORTS as readonly string[]).includes(transport)) {
    return { kind: "error", message: `--transport must be ${AGENT_TRANSPORTS.join(", ").replace(/, (?=[^,]*$)/, " or ")}, not "${transport}"` };
  }
  const grace = values["stop-grace"] ?? String(DEFAULT_STOP_GRACE_SEC);
  if (!/^\d+$/.test(grace) || Number(grace) > 86_400) {
    return { kind: "error", message: `--stop-grace must be a whole number of seconds from 0 to 86400, not "${grace}"` };
  }
  return {
    kind: "run",
    options: {
      server: values.server.replace(/\/+$/, ""),
      token,
      allow,
      stateDir,
      once: values.once ?? false,
      quiet: values.quiet ?? false,
      lab,
      labDevices,
      allowTunables: tunables.names,
      history: history.dirs,
      telemetry: !values["no-telemetry"],
      transport: transport as AgentTransport,
      stopGraceSec: Number(grace),
    },
  };
}
