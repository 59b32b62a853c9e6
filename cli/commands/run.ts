import { readFile, stat } from "node:fs/promises";
import { JOB_FILE_MAX_BYTES } from "../../probes/fio/jobfile/validate";
import { parseSteadyFlag } from "../../probes/fio/steady-state";
import { getProbe, presetRefs, probeIds, resolvePreset, validateParams } from "../../probes/catalog";
import { unknownParamErrors } from "../../probes/param-names";
import { connectionOptions, paramPairs, parse, positiveInt } from "../args";
import { connection, getJson, request } from "../client";
import { CliError, EXIT, exitCodeOfStatus, usageError } from "../exit-codes";
import { followRun, type FinalRun } from "../follow";
import { jsonLine, terminalText } from "../terminal-text";

/** "  dd      write-direct, read-direct, …" per probe, from the catalog (never typed by hand). */
function presetLines(): string {
  const byProbe = new Map<string, string[]>();
  for (const ref of presetRefs()) {
    const [probe, preset] = ref.split(":") as [string, string];
    byProbe.set(probe, [...(byProbe.get(probe) ?? []), preset]);
  }
  const lines: string[] = [];
  for (const [probe, presets] of byProbe) {
    let line = `  ${probe.padEnd(8)}`;
    presets.forEach((preset, i) => {
      const word = `${preset}${i < presets.length - 1 ? "," : ""}`;
      if (line.trim().length > probe.length && line.length + 1 + word.length > 96) {
        lines.push(line);
        line = `          ${word}`;
      } else line += line.endsWith(" ") ? word : ` ${word}`;
    });
    lines.push(line);
  }
  return lines.join("\n");
}

const [firstPreset] = presetRefs();

export const RUN_HELP = `probebook run --host NAME --preset PROBE:PRESET [options]
probebook run fio --job-file PATH --host NAME [options]

Launches a probe on a registered host through the HTTP API.

  --host NAME|ID       the host (its name as on the Hosts page, or its id)
  --preset P:NAME      a preset of the probe catalog (listed below), e.g. ${firstPreset}
  --probe P            instead of --preset: the probe alone, parameters from --param
  --param k=v          set or override a parameter (repeatable), e.g. --param sizeMiB=64; a name
                       the probe does not know is refused (exit 2) with the valid names;
                       fio's steady state: --param steadyState=iops:5%,window=5,ramp=2
  --job-file PATH      fio only: run this fio job file (at most 64 KiB) instead of a preset's
                       workload; its options must be on the allow-list (see the README), and
                       the agent writes it into the run's private directory
  --target DIR         the directory to probe (default: the agent's first allowed directory)
  --repeats N          launch N repeats of the same configuration (1–20)
  --wait               follow the live output until the run ends; the exit code is the run's outcome
  --timeout SEC        with --wait: give up waiting after SEC seconds (exit 7; the run goes on)
  --json               machine-readable output: one JSON object per line on stdout
                       ({"event":"chunk",…} while it runs, then {"event":"end","run":…})
  --raw                with --wait: print the run's output exactly as the agent sent it,
                       escape sequences included (default: removed, see probebook --help)

Presets (probe, then its presets):
${presetLines()}

Exit codes: 0 succeeded · 1 failed · 2 bad arguments · 3 cancelled · 4 lost · 5 refused by the
server · 6 server unreachable · 7 --timeout passed.`;

export interface HostRow {
  id: string;
  name: string;
  capabilities: { allowedDirs?: string[] } | null;
}

export function pickHost(hosts: HostRow[], wanted: string): HostRow {
  const exact = hosts.filter((h) => h.id === wanted.toLowerCase() || h.name === wanted);
  const loose = exact.length ? exact : hosts.filter((h) => h.name.toLowerCase() === wanted.toLowerCase());
  if (loose.length === 1) return loose[0]!;
  if (loose.length > 1) throw usageError(`Several hosts are named "${wanted}": give its id instead (${loose.map((h) => h.id).join(", ")}).`);
  const names = hosts.map((h) => h.name).join(", ") || "none yet";
  throw usageError(`No host named "${wanted}". Hosts: ${names}.`);
}

export async function runCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parse("run", argv, {
    ...connectionOptions,
    host: { type: "string" },
    preset: { type: "string" },
    probe: { type: "string" },
    param: { type: "string", multiple: true },
    target: { type: "string" },
    repeats: { type: "string" },
    wait: { type: "boolean" },
    timeout: { type: "string" },
    json: { type: "boolean" },
    raw: { type: "boolean" },
    "job-file": { type: "string" },
  }, true);
  if (values.help) {
    process.stdout.write(`${RUN_HELP}\n`);
    return EXIT.OK;
  }
  if (!values.host) throw usageError("Give the host with --host NAME.");
  // `probebook run fio --job-file PATH`: the probe may be named as the one positional argument.
  if (positionals.length > 1) throw usageError(`run: one probe at most, got ${positionals.join(" ")}.`);
  if (positionals.length === 1) {
    if (values.probe && values.probe !== positionals[0]) throw usageError(`run: the probe is named twice (${positionals[0]} and --probe ${values.probe}).`);
    values.probe = positionals[0];
  }
  const jobFilePath = values["job-file"];
  if (jobFilePath !== undefined) {
    if (values.preset) throw usageError("--job-file replaces a preset's workload: give --probe fio (or `run fio`) instead of --preset.");
    values.probe ??= "fio";
    if (values.probe !== "fio") throw usageError("--job-file is for the fio probe only.");
  }
  if (!values.preset === !values.probe) throw usageError(`Give either --preset PROBE:PRESET (e.g. ${firstPreset}) or --probe PROBE.`);
  let probe: string;
  let params: Record<string, unknown>;
  let presetId: string | undefined;
  if (values.preset) {
    const preset = resolvePreset(values.preset);
    if (!preset) throw usageError(`Unknown preset "${values.preset}". Presets: ${presetRefs().join(", ")}.`);
    probe = preset.probeId;
    presetId = preset.presetId;
    params = preset.params as Record<string, unknown>;
  } else {
    if (!getProbe(values.probe!)) throw usageError(`Unknown probe "${values.probe}". Probes: ${probeIds.join(", ")}.`);
    probe = values.probe!;
    params = {};
  }
  const overrides: Record<string, unknown> = paramPairs(values.param);
  // The probe's schema would drop a name it does not know, and the preset's value would run.
  const unknown = Object.values(unknownParamErrors(probe, overrides));
  if (unknown.length > 0) throw usageError(unknown.join("\n"));
  if (jobFilePath !== undefined) overrides.jobFile = await readJobFile(jobFilePath);
  // fio's steady state as on the sweep command line: --param steadyState=iops:5%,window=5,ramp=2.
  if (typeof overrides.steadyState === "string") {
    const s = parseSteadyFlag(overrides.steadyState);
    if (!s.ok) throw usageError(`--param steadyState: ${s.error}.`);
    overrides.steadyState = s.spec;
  }
  const repeats = positiveInt(values.repeats, "repeats", 20) ?? 1;
  const timeoutSec = positiveInt(values.timeout, "timeout", 7 * 24 * 3600);
  if (timeoutSec !== undefined && !values.wait) throw usageError("--timeout only applies with --wait.");
  if (values.raw && !values.wait) throw usageError("--raw only applies with --wait (it prints the run's output as the agent sent it).");

  const conn = connection(values);
  const { hosts } = await getJson<{ hosts: HostRow[] }>(conn, "/api/hosts");
  const host = pickHost(hosts, values.host);
  const target = values.target ?? host.capabilities?.allowedDirs?.[0];
  if (!target) throw new CliError(`The agent of ${host.name} has not reported its allowed directories yet: start it, or give --target DIR.`, EXIT.API_ERROR);
  const all = { ...params, ...overrides, target };
  // The same catalog the server and the agent validate with: a bad parameter never leaves here.
  const checked = validateParams(probe, all);
  if (!checked.ok) {
    const flag = (k: string) => (k === "jobFile" ? `--job-file ${jobFilePath}` : `--param ${k}`);
    throw usageError(`${checked.message}${Object.entries(checked.fieldErrors).map(([k, v]) => `\n  ${flag(k)}: ${v.join(jobFilePath && k === "jobFile" ? `\n  ${flag(k)}: ` : " ")}`).join("")}`);
  }
  const res = await request(conn, "POST", "/api/runs", { body: { hostId: host.id, probe, ...(presetId ? { preset: presetId } : {}), params: all, repeats } });
  const { ids } = (await res.json()) as { id: string; ids: string[] };
  if (!values.wait) {
    process.stdout.write(values.json ? jsonLine({ event: "queued", ids }) : `${ids.map((i) => terminalText(i, { oneLine: true })).join("\n")}\n`);
    return EXIT.OK;
  }
  if (!values.json) process.stderr.write(terminalText(`queued ${ids.length > 1 ? `${ids.length} runs` : `run ${ids[0]}`} on ${host.name} (${conn.server}/runs/${ids[0]})`, { oneLine: true }) + "\n");
  const deadline = timeoutSec !== undefined ? Date.now() + timeoutSec * 1000 : undefined;
  let worst: number = EXIT.OK;
  for (const id of ids) {
    const run = await followRun(conn, id, { json: !!values.json, raw: !!values.raw, deadline });
    report(run, !!values.json);
    const code = exitCodeOfStatus(run.status);
    if (code !== EXIT.OK && (worst === EXIT.OK || code < worst)) worst = code;
  }
  return worst;
}

/** The finished run: a JSON line, or its outcome, error and warnings on stderr. */
export function report(run: FinalRun, json: boolean): void {
  if (json) {
    process.stdout.write(jsonLine({ event: "end", run }));
    return;
  }
  const took = run.durationMs !== null ? ` in ${(run.durationMs / 1000).toFixed(1)} s` : "";
  process.stderr.write(`${terminalText(`run ${run.id}: ${run.status.toLowerCase()}${took}${run.exitCode !== null ? `, exit ${run.exitCode}` : ""}`, { oneLine: true })}\n`);
  // The error and the warnings are an agent's words (or quote them): printable text only.
  if (run.error) process.stderr.write(`  ${terminalText(run.error)}\n`);
  for (const w of run.warnings) process.stderr.write(`  warning: ${terminalText(w)}\n`);
}

/** The job file's text, its size checked before it is read (the same 64 KiB the server allows). */
async function readJobFile(file: string): Promise<string> {
  const st = await stat(file).catch((err: NodeJS.ErrnoException) => {
    throw usageError(`--job-file ${file}: ${err.code === "ENOENT" ? "no such file" : err.message}.`);
  });
  if (!st.isFile()) throw usageError(`--job-file ${file}: not a regular file.`);
  if (st.size > JOB_FILE_MAX_BYTES) throw usageError(`--job-file ${file}: ${st.size} bytes; a job file may be at most ${JOB_FILE_MAX_BYTES} bytes (64 KiB).`);
  return readFile(file, "utf8");
}
