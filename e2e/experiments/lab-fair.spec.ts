// The file-system lab is fair for disk I/O, end to end with a real agent started with --lab:
// its loop devices read and write their images with direct I/O (the kernel's dio flag is 1 while
// the probe runs, and the run's setup report says so), so an O_DIRECT write of gigabytes inside
// the lab leaves no dirty pages of its image in the host's page cache; the same file system against itself gives no verdict of a
// difference; and a lab volume mounted `sync` against one that is not is found slower.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { type APIRequestContext, type Page } from "@playwright/test";
import { expect, test } from "../fixtures";
import { addHostWithAgent, removeAgent, type AgentHandle } from "../agent/agent-process";
import { signInAs } from "../helpers";

const root = path.resolve(__dirname, "..", "..");
let agent: AgentHandle | null = null;
let labDir = "";
let hostId = "";

interface VerdictLine {
  metric: string;
  dims: Record<string, string>;
  baseline: string;
  arm: string;
  ratio: number;
  ciLow: number;
  ciHigh: number;
}
interface ExperimentJson {
  id: string;
  status: string;
  arms: { label: string; runIds: string[] }[];
  verdict: VerdictLine[];
  runs: { id: string; armIndex: number; status: string; setup: { lab: { loopDevice: string; kind?: string; dio?: boolean; removed: boolean } | null } | null }[];
}

async function experiment(request: APIRequestContext, id: string): Promise<ExperimentJson> {
  const r = await request.get(`/api/experiments/${id}`);
  expect(r.status()).toBe(200);
  return (await r.json()) as ExperimentJson;
}

async function create(request: APIRequestContext, data: Record<string, unknown>): Promise<string> {
  const r = await request.post("/api/experiments", { data: { hostId, ...data } });
  expect(r.status(), await r.text()).toBe(201);
  return ((await r.json()) as { id: string }).id;
}

async function finished(request: APIRequestContext, id: string, timeout: number): Promise<ExperimentJson> {
  await expect.poll(async () => (await experiment(request, id)).status, { timeout, intervals: [1000] }).toBe("FINISHED");
  return experiment(request, id);
}

/** The lab's loop devices as `losetup` lists them now: name and the kernel's dio flag. */
const labLoops = () =>
  execFileSync("losetup", ["-l", "-n", "-O", "NAME,DIO,BACK-FILE"], { encoding: "utf8" })
    .split("\n")
    .filter((l) => l.includes(labDir))
    .map((l) => l.trim().split(/\s+/))
    .map(([name, dio]) => ({ name: name ?? "", dio: dio ?? "" }));

/** A verdict line "finds a difference" when its interval for the ratio leaves out 1. */
const differs = (v: VerdictLine) => v.ciHigh < 1 || v.ciLow > 1;

test.describe.configure({ mode: "serial" });

test.beforeAll(() => {
  fs.mkdirSync(path.join(root, ".data"), { recursive: true });
  labDir = fs.mkdtempSync(path.join(root, ".data", "e2e-labfair-"));
});

test.afterAll(async () => {
  await removeAgent(agent);
  fs.rmSync(labDir, { recursive: true, force: true });
});

async function setUp(page: Page, baseURL: string) {
  await signInAs(page, "operator");
  if (agent) return;
  ({ agent, hostId } = await addHostWithAgent(page, { baseURL, name: "e2e-labfair", extraArgs: ["--lab", labDir] }));
}

// Direct I/O from inside the lab: a 6 s fio O_DIRECT write of a 1 GiB file in 1 MiB blocks
// (about 6 GiB written here). Through a loop device WITHOUT direct I/O the same write kept the
// host's Dirty at 1024-1027 MiB for the whole run on this machine (measured by hand with losetup
// --direct-io=off), all of it the image file's own pages. The host-wide Dirty of the run's
// telemetry cannot tell the lab apart from other work on a shared test machine (another buffered
// fio there showed 1.2 GiB), so the test reads the image file's own dirty pages with cachestat(2)
// (Linux 6.5+, syscall 451 on x86_64), the page-cache state of exactly the backing file.
const DIRTY_LIMIT_BYTES = 64 * 2 ** 20;
const CACHESTAT = `
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
class R(ctypes.Structure): _fields_ = [("off", ctypes.c_uint64), ("len", ctypes.c_uint64)]
class S(ctypes.Structure): _fields_ = [(n, ctypes.c_uint64) for n in ("cache", "dirty", "writeback", "evicted", "recently_evicted")]
for p in sys.argv[1:]:
    try:
        fd = os.open(p, os.O_RDONLY)
    except OSError:
        continue
    s = S()
    rc = libc.syscall(451, fd, ctypes.byref(R(0, 0)), ctypes.byref(s), 0)
    os.close(fd)
    if rc == 0:
        print(s.dirty * 4096)
`;
/** Dirty bytes in the page cache of each lab image that exists now. */
function imageDirtyBytes(): number[] {
  const images = fs
    .readdirSync(labDir)
    .filter((d) => d.startsWith("probebook-lab-"))
    .map((d) => path.join(labDir, d, "image"));
  if (images.length === 0) return [];
  const out = execFileSync("python3", ["-c", CACHESTAT, ...images], { encoding: "utf8" });
  return out.split("\n").filter(Boolean).map(Number);
}

test("a lab's loop device has direct I/O while the probe runs, and an O_DIRECT write leaves no dirty pages of its image", async ({ page, baseURL }) => {
  test.setTimeout(180_000);
  await setUp(page, baseURL!);
  const id = await create(page.request, {
    probe: "fio",
    params: { rw: "write", blockSizeKiB: 1024, sizeMiB: 1024, runtimeSec: 6, ioengine: "psync", iodepth: 1, numjobs: 1, direct: true },
    arms: [{ fs: "ext4" }, { fs: "xfs" }],
    repeats: { min: 3, max: 3, warmup: false },
  });
  // While the experiment runs: the kernel's own dio flag of every lab loop device seen.
  const seen: { name: string; dio: string }[] = [];
  const dirty: number[] = [];
  const poll = setInterval(() => {
    seen.push(...labLoops());
    dirty.push(...imageDirtyBytes());
  }, 250);
  let e: ExperimentJson;
  try {
    e = await finished(page.request, id, 150_000);
  } finally {
    clearInterval(poll);
  }
  expect(seen.length).toBeGreaterThan(0);
  expect(seen.every((l) => l.dio === "1"), JSON.stringify(seen.slice(0, 5))).toBe(true);
  expect(new Set(seen.map((l) => l.name)).size).toBeGreaterThanOrEqual(1);
  // Four runs of six seconds: dozens of readings of the images' page cache, none of them dirty beyond the bound.
  expect(dirty.length).toBeGreaterThan(20);
  expect(Math.max(...dirty), `image dirty bytes, highest: ${[...dirty].sort((a, b) => b - a).slice(0, 5).join(" ")}`).toBeLessThan(DIRTY_LIMIT_BYTES);

  expect(e.runs).toHaveLength(6);
  for (const r of e.runs) {
    expect(r.setup?.lab).toMatchObject({ kind: "loop-dio", dio: true, removed: true });
    const t = await page.request.get(`/api/runs/${r.id}/telemetry`);
    expect(t.status()).toBe(200);
    const samples = ((await t.json()) as { samples: { memory: { dirty: number } }[] }).samples;
    // Six seconds of fio; the agent sampled the host (Dirty included) once a second.
    expect(samples.length).toBeGreaterThanOrEqual(4);
    expect(samples.every((x) => Number.isFinite(x.memory.dirty))).toBe(true);
  }
  // The run page names the kind of volume.
  await page.goto(`/runs/${e.runs[0]!.id}`);
  await expect(page.getByTestId("setup-lab-kind")).toHaveAttribute("data-kind", "loop-dio");
  await expect(page.getByTestId("setup-lab-kind")).toContainText("with direct I/O");
  await page.goto(`/experiments/${id}`);
  await expect(page.getByTestId("experiment-plan")).toContainText("loop image, direct I/O");
  await expect(page.getByTestId("lab-buffered-warning")).toHaveCount(0);
});

// fio time-based runs (≥ 5 s each, so the runs are valid measurements), 4 rounds per arm: with 4
// runs a side the exact interval is the whole range of pairwise ratios (97 % coverage), and it
// leaves out 1 only when every run of one arm beats every run of the other.
const fio = (direct: boolean) => ({ rw: "write", blockSizeKiB: 4, sizeMiB: 128, runtimeSec: 6, ioengine: "psync", iodepth: 1, numjobs: 1, direct });

test("the same lab file system against itself gives no verdict of a difference", async ({ page, baseURL }) => {
  test.setTimeout(180_000);
  await setUp(page, baseURL!);
  const id = await create(page.request, {
    probe: "fio",
    params: fio(true),
    arms: [
      { fs: "ext4", label: "ext4 A" },
      { fs: "ext4", label: "ext4 B" },
    ],
    repeats: { min: 4, max: 4 },
  });
  const e = await finished(page.request, id, 170_000);
  expect(e.arms.map((a) => a.label)).toEqual(["ext4 A", "ext4 B"]);
  expect(e.verdict.length).toBeGreaterThan(0);
  for (const v of e.verdict) expect(differs(v), `${v.metric} ${JSON.stringify(v.dims)}: ${v.ratio} [${v.ciLow}, ${v.ciHigh}]`).toBe(false);
  expect(e.runs.every((r) => r.setup?.lab?.dio === true)).toBe(true);
});

test("a lab volume mounted sync is found slower for buffered writes than one that is not", async ({ page, baseURL }) => {
  test.setTimeout(180_000);
  await setUp(page, baseURL!);
  const id = await create(page.request, {
    probe: "fio",
    params: fio(false),
    arms: [{ fs: "ext4" }, { fs: "ext4", mountOptions: ["sync"] }],
    repeats: { min: 4, max: 4 },
  });
  const e = await finished(page.request, id, 170_000);
  expect(e.arms.map((a) => a.label)).toEqual(["ext4", "ext4 (sync)"]);
  const bandwidth = e.verdict.filter((v) => /bandwidth|bw|throughput/i.test(v.metric));
  expect(bandwidth.length, JSON.stringify(e.verdict.map((v) => v.metric))).toBeGreaterThan(0);
  const why = JSON.stringify((e as unknown as { runs: { excludedBecause?: string[] }[] }).runs.map((r) => r.excludedBecause));
  for (const v of bandwidth) expect(v.ciHigh, `${v.metric}: ${v.ratio} [${v.ciLow}, ${v.ciHigh}]; left out: ${why}`).toBeLessThan(1);
});
