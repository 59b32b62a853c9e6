// Benchmark for "Compare and share": the compare page with 20 iozone auto runs, each a full
// 13-operation table (7 record sizes × 13 operations = 91 figures), inserted as IMPORTED runs
// built from a real iozone 3.489 output and perturbed. Measures (a) the server time of
// GET /compare?runs=… (whole response, API token) and (b) in Chromium the time from navigation
// start until every chart's SVG is on the page and a tooltip answers a hover. Prints a table and
// writes bench/results/compare-page.json. A missed target is reported, not an error.
//   npx tsx bench/compare-page.ts [--build] [--requests 15] [--loads 7]
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient, type Prisma } from "@prisma/client";
import { chromium } from "@playwright/test";
import { readDatabaseUrlFile } from "../lib/runtime/database-url-file";
import { buildStaleReason } from "../lib/runtime/next-build";
import { parseOutput } from "../probes/catalog";
import type { NormalisedResult } from "../probes/core/types";
import { createOperatorToken } from "./lib/api";
import { seededRandom } from "../lib/seeded-random";

const root = path.resolve(__dirname, "..");
const PORT = 3320;
const DATA_DIR = path.join(root, ".data", "bench-compare");
const RESULTS = path.join(root, "bench", "results", "compare-page.json");
const FIXTURE = path.join(root, "probes", "iozone", "fixtures", "iozone-auto-64m-alltests-R.txt");
const CHROMIUM = process.env.PLAYWRIGHT_CHROMIUM_PATH ?? (fs.existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : undefined);
const RUNS = 20;
const TARGET_MS = 1000;

const say = (m: string) => console.error(`[bench] ${m}`);

/** 20 hosts' worth of one real table: a per-host level (0.55–1.45×), a per-operation tilt and ±4 % noise. */
function perturbedRuns(base: NormalisedResult): NormalisedResult[] {
  const rand = seededRandom(20261121);
  return Array.from({ length: RUNS }, (_, i) => {
    const level = 0.55 + (0.9 * i) / (RUNS - 1);
    const tilt = new Map<string, number>();
    return {
      ...base,
      measurements: base.measurements.map((m) => {
        if (!tilt.has(m.metric)) tilt.set(m.metric, 0.85 + 0.3 * rand());
        const noise = 0.96 + 0.08 * rand();
        return { ...m, value: Math.round(m.value * level * tilt.get(m.metric)! * noise) };
      }),
    };
  });
}

async function insertRuns(databaseUrl: string): Promise<string[]> {
  const parsed = parseOutput("iozone", fs.readFileSync(FIXTURE, "utf8"));
  if (!parsed.ok) throw new Error(`fixture did not parse: ${parsed.error}`);
  if (parsed.result.measurements.length !== 91) throw new Error(`expected 91 figures in the fixture, got ${parsed.result.measurements.length}`);
  const client = new PrismaClient({ adapter: new PrismaPg({ connectionString: databaseUrl }) });
  try {
    const fs_ = ["ext4", "xfs", "ext3", "btrfs"];
    const media = ["ssd", "disk"];
    const now = Date.now();
    const ids: string[] = [];
    for (const [i, result] of perturbedRuns(parsed.result).entries()) {
      const created = new Date(now - (RUNS - i) * 3_600_000);
      const row = await client.probeRun.create({
        data: {
          probe: "iozone",
          params: {},
          hostLabel: `bench-host-${String(i + 1).padStart(2, "0")}`,
          origin: "IMPORTED",
          status: "SUCCEEDED",
          result: result as unknown as Prisma.InputJsonValue,
          warnings: [],
          fsType: fs_[i % fs_.length]!,
          medium: media[Math.floor(i / 4) % media.length]!,
          createdAt: created,
          startedAt: created,
          finishedAt: created,
          notes: "bench/compare-page.ts: iozone-auto-64m-alltests-R.txt perturbed",
        },
        select: { id: true },
      });
      ids.push(row.id);
    }
    return ids;
  } finally {
    await client.$disconnect();
  }
}

// ------------------------------------------------------------------ server, stats, report

interface Server {
  url: string;
  databaseUrl: string;
  stop(): Promise<void>;
}

/**
 * scripts/e2e-server.ts on the bench's port and data dir: a fresh database, the seed and
 * `next start`. It rebuilds .next when the sources are newer, which would swap the build under
 * other servers of this checkout: only with --build.
 */
async function startServer(allowBuild: boolean): Promise<Server> {
  const stale = buildStaleReason();
  if (stale && !allowBuild) throw new Error(`the production build is stale (${stale}): run \`npm run build\` first, or pass --build`);
  const url = `http://127.0.0.1:${PORT}`;
  const busy = await fetch(`${url}/api/health`).then(() => true, () => false);
  if (busy) throw new Error(`port ${PORT} is already in use: is another bench running?`);
  const child: ChildProcess = spawn(process.execPath, [path.join(root, "node_modules", "tsx", "dist", "cli.mjs"), "scripts/e2e-server.ts"], {
    cwd: root,
    env: { ...process.env, PORT: String(PORT), PROBEBOOK_DATA_DIR: DATA_DIR },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: string[] = [];
  const keep = (d: Buffer) => lines.push(...d.toString().split("\n").filter(Boolean).slice(-40));
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      // e2e-server stops `next` and drops its database on SIGTERM; SIGKILL only if it hangs.
      const t = setTimeout(() => child.kill("SIGKILL"), 30_000);
      child.once("exit", () => (clearTimeout(t), resolve()));
      child.kill("SIGTERM");
    });
  stopServer = stop;
  const deadline = Date.now() + (stale ? 600_000 : 180_000);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}):\n${lines.slice(-20).join("\n")}`);
    if (await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2000) }).then((r) => r.ok, () => false)) break;
    if (Date.now() > deadline) throw new Error(`the server did not become healthy:\n${lines.slice(-20).join("\n")}`);
    await new Promise((r) => setTimeout(r, 300));
  }
  const databaseUrl = readDatabaseUrlFile(DATA_DIR);
  if (!databaseUrl) throw new Error(`the server is up but ${DATA_DIR}/database-url is missing`);
  return { url, databaseUrl, stop };
}

let stopServer: (() => Promise<void>) | null = null;


interface Summary {
  n: number;
  median: number;
  p95: number;
  min: number;
  max: number;
}

/** Nearest-rank order statistics: every figure is one some request really had. */
function summarize(samples: readonly number[]): Summary {
  const s = [...samples].sort((a, b) => a - b);
  const at = (p: number) => s[Math.min(s.length, Math.max(1, Math.ceil((p / 100) * s.length))) - 1]!;
  const r = (x: number) => Math.round(x * 10) / 10;
  return { n: s.length, median: r(at(50)), p95: r(at(95)), min: r(s[0]!), max: r(s[s.length - 1]!) };
}

const ms = (x: number) => (x < 10 ? x.toFixed(1) : x.toFixed(0));

function table(title: string, rows: [string, string, string, string][]): string {
  const all: [string, string, string, string][] = [["figure", "value", "target", "verdict"], ...rows];
  const w = [0, 1, 2].map((c) => Math.max(...all.map((r) => r[c]!.length)));
  const line = (r: string[]) => r.map((c, i) => (i < 3 ? c.padEnd(w[i]!) : c)).join("  ").trimEnd();
  const rule = "-".repeat(w.reduce((a, b) => a + b + 2, 0) + 7);
  return [title, rule, line(all[0]!), rule, ...all.slice(1).map(line), rule].join("\n");
}

async function serverTimes(url: string, token: string, n: number): Promise<{ samples: number[]; bytes: number }> {
  const get = async () => {
    const t0 = performance.now();
    const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    const body = await res.text();
    const dt = performance.now() - t0;
    if (res.status !== 200) throw new Error(`GET ${url}: HTTP ${res.status} ${body.slice(0, 200)}`);
    if (!body.includes('data-testid="compare-section-iozone"')) throw new Error("the compare page did not render the iozone section");
    return { dt, bytes: Buffer.byteLength(body) };
  };
  for (let i = 0; i < 3; i++) await get(); // warm-up: first requests compile routes and fill caches
  const samples: number[] = [];
  let bytes = 0;
  for (let i = 0; i < n; i++) {
    const r = await get();
    samples.push(r.dt);
    bytes = r.bytes;
  }
  return { samples, bytes };
}

/**
 * In the page, from the moment the navigation commits: every animation frame, note when all the
 * charts' SVGs are there, then move a pointer over the first chart's plot until the tooltip
 * answers (before hydration nothing listens, as for a real user moving the mouse). Resolves with
 * both times in performance.now() terms, i.e. milliseconds since navigation start. A string, as
 * tsx's name-keeping helpers do not exist in the page.
 */
const LOAD_PROBE = (charts: number) => `new Promise((resolve, reject) => {
  let chartsAt = null;
  const deadline = performance.now() + 30000;
  const frame = () => {
    const svgs = document.querySelectorAll('[data-testid="compare-chart"] svg[data-testid="compare-svg"]');
    if (chartsAt === null && svgs.length >= ${charts}) chartsAt = performance.now();
    if (document.querySelector('[data-testid="compare-tooltip"]')) return resolve({ chartsAt, tooltipAt: performance.now(), charts: svgs.length });
    if (performance.now() > deadline) return reject(new Error("no tooltip within 30 s (" + svgs.length + " charts)"));
    const overlay = svgs[0] && svgs[0].querySelector(":scope > rect:last-of-type");
    if (overlay) {
      const r = overlay.getBoundingClientRect();
      overlay.dispatchEvent(new PointerEvent("pointermove", { bubbles: true, clientX: r.left + r.width / 2, clientY: r.top + r.height / 2, pointerType: "mouse" }));
    }
    requestAnimationFrame(frame);
  };
  frame();
})`;

interface Load {
  chartsMs: number;
  tooltipMs: number;
  charts: number;
}

async function browserTimes(url: string, token: string, n: number): Promise<Load[]> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"] });
  try {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, extraHTTPHeaders: { authorization: `Bearer ${token}` } });
    const page = await context.newPage();
    const loads: Load[] = [];
    for (let i = 0; i < n + 1; i++) {
      await page.goto(url, { waitUntil: "commit" });
      const r = (await page.evaluate(LOAD_PROBE(13))) as { chartsAt: number; tooltipAt: number; charts: number };
      const chartsMs = r.chartsAt;
      const tooltipMs = r.tooltipAt;
      const charts = r.charts;
      if (i > 0) loads.push({ chartsMs, tooltipMs, charts }); // the first load warms the browser's cache
    }
    // A real pointer too, once: the synthetic event above is what is timed, this proves it is equivalent.
    // A real pointer too, once, on a fresh load: the synthetic events above are what is timed; this
    // shows the same chart answers the mouse.
    await page.reload();
    const first = page.locator('[data-testid="compare-chart"] svg[data-testid="compare-svg"]').first();
    await first.scrollIntoViewIfNeeded();
    const box = await first.boundingBox();
    if (!box) throw new Error("no chart box");
    for (let i = 0; (await page.locator('[data-testid="compare-tooltip"]').count()) === 0; i++) {
      if (i > 100) throw new Error("the tooltip did not appear for a real pointer");
      await page.mouse.move(box.x + box.width / 3 + (i % 2), box.y + box.height / 2);
      await new Promise((r) => setTimeout(r, 50));
    }
    return loads;
  } finally {
    await browser.close();
  }
}

async function main(): Promise<number> {
  const { values: flags } = parseArgs({ options: { build: { type: "boolean" }, requests: { type: "string" }, loads: { type: "string" } } });
  const nRequests = Number(flags.requests ?? 15);
  const nLoads = Number(flags.loads ?? 7);
  for (const sig of ["SIGINT", "SIGTERM"] as const) process.once(sig, () => void (stopServer?.() ?? Promise.resolve()).then(() => process.exit(130)));
  const cpu = os.cpus()[0]?.model.trim() ?? "unknown CPU";
  const machine = { vcpus: os.availableParallelism(), cpu, memGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10, kernel: os.release(), node: process.version };
  say(`starting scripts/e2e-server.ts on port ${PORT} (data dir ${path.relative(root, DATA_DIR)})…`);
  const server = await startServer(!!flags.build);
  try {
    const token = await createOperatorToken(server.databaseUrl);
    say(`inserting ${RUNS} imported iozone runs…`);
    const ids = await insertRuns(server.databaseUrl);
    const url = `${server.url}/compare?runs=${ids.join(",")}`;
    say(`GET /compare × ${nRequests} (after 3 warm-up requests)…`);
    const srv = await serverTimes(url, token, nRequests);
    say(`Chromium: ${nLoads} loads (after 1 warm-up)…`);
    const loads = await browserTimes(url, token, nLoads);
    const serverS = summarize(srv.samples);
    const chartsS = summarize(loads.map((l) => l.chartsMs));
    const tooltipS = summarize(loads.map((l) => l.tooltipMs));
    const verdict = (x: number) => (x <= TARGET_MS ? "PASS" : "FAIL");
    console.log(
      table(`Compare page: ${RUNS} iozone runs × 91 figures, ${loads[0]?.charts ?? "?"} charts — ${machine.vcpus} vCPU ${cpu}, ${machine.memGiB} GiB, node ${machine.node}`, [
        ["server time, GET /compare, median", `${ms(serverS.median)} ms (p95 ${ms(serverS.p95)})`, `≤ ${TARGET_MS} ms`, verdict(serverS.median)],
        ["navigation start → all chart SVGs, median", `${ms(chartsS.median)} ms (max ${ms(chartsS.max)})`, "(info)", ""],
        ["navigation start → tooltip on hover, median", `${ms(tooltipS.median)} ms (max ${ms(tooltipS.max)})`, `≤ ${TARGET_MS} ms`, verdict(tooltipS.median)],
        ["HTML of the page", `${Math.round(srv.bytes / 1024)} KiB`, "(info)", ""],
      ]),
    );
    fs.mkdirSync(path.dirname(RESULTS), { recursive: true });
    fs.writeFileSync(
      RESULTS,
      `${JSON.stringify(
        {
          date: new Date().toISOString(),
          machine,
          data: { runs: RUNS, figuresPerRun: 91, fixture: path.relative(root, FIXTURE), charts: loads[0]?.charts ?? null },
          targetMs: TARGET_MS,
          serverMs: { ...serverS, samples: srv.samples.map((x) => Math.round(x * 10) / 10) },
          htmlBytes: srv.bytes,
          browser: {
            chromium: CHROMIUM ?? "playwright's",
            viewport: "1440×900",
            chartsVisibleMs: { ...chartsS, samples: loads.map((l) => Math.round(l.chartsMs)) },
            tooltipMs: { ...tooltipS, samples: loads.map((l) => Math.round(l.tooltipMs)) },
          },
          pass: { server: serverS.median <= TARGET_MS, interactive: tooltipS.median <= TARGET_MS },
        },
        null,
        2,
      )}\n`,
    );
    say(`wrote ${path.relative(root, RESULTS)}`);
    return 0;
  } finally {
    say("stopping the server…");
    await server.stop();
  }
}

main().then(
  (code) => process.exit(code),
  async (err: unknown) => {
    console.error(`[bench] failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    await stopServer?.();
    process.exit(1);
  },
);
