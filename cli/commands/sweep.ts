// probebook sweep create / show: a fio workload over an iodepth × numjobs grid, and its points
// with the saturation sentence. Public HTTP API only; every cell from the server goes through terminalText.
import { parseSteadyFlag } from "../../probes/fio/steady-state";
import type { SweepView } from "../../lib/sweeps/types";
import { connectionOptions, parse, positiveInt, runId } from "../args";
import { connection, getJson, request } from "../client";
import { CliError, EXIT, usageError } from "../exit-codes";
import { jsonLine, terminalText } from "../terminal-text";
import { pickHost, type HostRow } from "./run";
import { table } from "./series";

export const SWEEP_HELP = `probebook sweep create --host HOST --iodepths 1,4,16 --numjobs 1,2,4
    [--target DIR] [--rw randread] [--bs 4,64] [--ioengine libaio] [--size-mib 256]
    [--point-runtime 10] [--steady iops:5%,window=5,ramp=2] [--buffered] [--title T] [--json]
probebook sweep show SWEEP_ID [--json]

A sweep runs one fio workload over a grid of queue depths × job counts (× block sizes) on one
target, each point a time-based fio run, in an interleaved order (not light to heavy: drift over
the sweep would otherwise read as an effect of load). \`create\` prints the sweep's id; \`show\`
prints its points and where the device saturates.
  --iodepths LIST      queue depths, ascending (above 1 needs --ioengine libaio or io_uring)
  --numjobs LIST       job counts, ascending
  --bs LIST            block sizes in KiB, ascending (default 4)
  --ioengine E         psync (default), libaio or io_uring
  --point-runtime S    each point's time limit in seconds (default 10)
  --steady SPEC        end a point early once steady: METRIC:LIMIT%[,window=S][,ramp=S], METRIC
                       iops, iops_slope, bw or bw_slope (fio's steadystate)
  --buffered           through the page cache (default: direct=1)
  --json               the API's answer as JSON`;

const cell = (v: string) => terminalText(v, { oneLine: true });

/** "1,4,16" → [1, 4, 16]; anything else is a usage error naming the flag. */
export function intList(value: string | undefined, name: string): number[] | undefined {
  if (value === undefined) return undefined;
  const parts = value.split(",").map((s) => s.trim());
  if (parts.some((p) => !/^\d+$/.test(p))) throw usageError(`--${name} takes whole numbers separated by commas (e.g. 1,4,16), not "${value}".`);
  return parts.map(Number);
}

const iops = (v: number | null) => (v === null ? "—" : v >= 1000 ? `${(v / 1000).toFixed(v >= 100_000 ? 0 : 1)} k` : v.toFixed(0));
const mibs = (v: number | null) => (v === null ? "—" : (v / 2 ** 20).toFixed(1));
const usec = (ns: number | null) => (ns === null ? "—" : ns >= 1e6 ? `${(ns / 1e6).toFixed(2)} ms` : `${(ns / 1e3).toFixed(0)} µs`);

export function sweepShowText(v: SweepView): string {
  const withBs = v.grid.blockSizesKiB.length > 1;
  const ss = v.workload.steadyState;
  const head = [
    `${cell(v.title)} — ${cell(v.hostLabel ?? "host hidden")}${v.target ? ` ${cell(v.target)}` : ""}${v.fsType ? ` (${cell(v.fsType)})` : ""}; ${cell(v.fioVersion ?? "fio version unknown")}; ${v.status.toLowerCase()}`,
    `workload: ${v.workload.rw}${v.workload.rwmixread !== null ? ` ${v.workload.rwmixread} % reads` : ""}, ${v.workload.ioengine}, ${v.workload.direct ? "direct" : "buffered"}, ${v.workload.sizeMiB} MiB file, points up to ${v.workload.pointRuntimeSec} s${ss ? `, steady when ${ss.metric} within ${ss.limitPercent} % over ${ss.windowSec} s (ramp ${ss.rampSec} s)` : ""}`,
  ];
  const rows = [["QD", "JOBS", ...(withBs ? ["BS KiB"] : []), "RAN", "STATUS", "IOPS", "MiB/s", "p50", "p99", "p99.9", "STEADY", "PROBLEM"]];
  for (const p of v.points) {
    const steady = !p.steady.enabled ? "—" : p.steady.reached === null ? "?" : p.steady.reached ? `after ${p.steady.afterSec ?? "?"} s` : "not steady";
    rows.push([String(p.iodepth), String(p.numjobs), ...(withBs ? [String(p.blockSizeKiB)] : []), `#${p.order + 1}`, p.status, iops(p.iops), mibs(p.bandwidthBps), usec(p.latP50Ns), usec(p.latP99Ns), usec(p.latP999Ns), steady, p.problem ?? ""].map(cell));
  }
  const sat = v.saturation ? `${cell(v.saturation.sentence)}\n  (${cell(v.saturation.rule)})` : "No point has finished yet.";
  return `${head.join("\n")}\n\n${table(rows)}\n${sat}\n`;
}

export async function sweepCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === "--help" || sub === "-h" || sub === undefined) {
    process.stdout.write(`${SWEEP_HELP}\n`);
    return sub === undefined ? EXIT.USAGE : EXIT.OK;
  }
  if (sub === "create") {
    const { values } = parse("sweep create", rest, {
      ...connectionOptions,
      host: { type: "string" },
      target: { type: "string" },
      rw: { type: "string" },
      iodepths: { type: "string" },
      numjobs: { type: "string" },
      bs: { type: "string" },
      ioengine: { type: "string" },
      "size-mib": { type: "string" },
      "point-runtime": { type: "string" },
      steady: { type: "string" },
      buffered: { type: "boolean" },
      title: { type: "string" },
      json: { type: "boolean" },
    });
    if (values.help) return help();
    if (!values.host) throw usageError("Give the host with --host NAME.");
    const iodepths = intList(values.iodepths, "iodepths");
    const numjobs = intList(values.numjobs, "numjobs");
    if (!iodepths || !numjobs) throw usageError("Give the grid with --iodepths LIST and --numjobs LIST (e.g. --iodepths 1,4,16 --numjobs 1,2,4).");
    const blockSizesKiB = intList(values.bs, "bs");
    let steadyState = null;
    if (values.steady !== undefined) {
      const s = parseSteadyFlag(values.steady);
      if (!s.ok) throw usageError(`--steady: ${s.error}.`);
      steadyState = s.spec;
    }
    const conn = connection(values);
    const { hosts } = await getJson<{ hosts: HostRow[] }>(conn, "/api/hosts");
    const host = pickHost(hosts, values.host);
    const target = values.target ?? host.capabilities?.allowedDirs?.[0];
    if (!target) throw new CliError(`The agent of ${host.name} has not reported its allowed directories yet: start it, or give --target DIR.`, EXIT.API_ERROR);
    const params = {
      target,
      rw: values.rw ?? "randread",
      ioengine: values.ioengine ?? "psync",
      direct: !values.buffered,
      runtimeSec: positiveInt(values["point-runtime"], "point-runtime", 86400) ?? 10,
      ...(values["size-mib"] !== undefined ? { sizeMiB: positiveInt(values["size-mib"], "size-mib", 1024 * 1024) } : {}),
    };
    const body = { hostId: host.id, kind: "sweep", probe: "fio", ...(values.title ? { title: values.title } : {}), params, sweep: { iodepths, numjobs, ...(blockSizesKiB ? { blockSizesKiB } : {}), steadyState } };
    // The server checks it all (and answers with the fields at fault, printed by request()).
    const res = await request(conn, "POST", "/api/experiments", { body });
    const { id } = (await res.json()) as { id: string };
    const points = iodepths.length * numjobs.length * (blockSizesKiB?.length ?? 1);
    if (values.json) process.stdout.write(jsonLine({ id, points }));
    else {
      process.stdout.write(`${cell(id)}\n`);
      process.stderr.write(cell(`queued a sweep of ${points} points on ${host.name} (${conn.server}/experiments/${id}); \`probebook sweep show ${id}\` follows it`) + "\n");
    }
    return EXIT.OK;
  }
  if (sub === "show") {
    const { values, positionals } = parse("sweep show", rest, { ...connectionOptions, json: { type: "boolean" } }, true);
    if (values.help) return help();
    if (positionals.length !== 1) throw usageError("sweep show takes one sweep id (as `probebook sweep create` prints).");
    const id = runId(positionals[0]!, "sweep id");
    const conn = connection(values);
    const answer = await getJson<{ kind?: string; sweep?: SweepView }>(conn, `/api/experiments/${id}`);
    if (answer.kind !== "sweep" || !answer.sweep) throw new CliError(`Experiment ${id} is not a sweep: \`probebook\` shows A/B experiments on the web page.`, EXIT.API_ERROR);
    process.stdout.write(values.json ? jsonLine(answer.sweep, 2) : sweepShowText(answer.sweep));
    return EXIT.OK;
  }
  throw usageError(`Unknown command "sweep ${sub}": use \`probebook sweep create\` or \`probebook sweep show ID\`.`);
}

function help(): number {
  process.stdout.write(`${SWEEP_HELP}\n`);
  return EXIT.OK;
}
