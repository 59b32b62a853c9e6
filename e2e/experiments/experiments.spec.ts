// Experiments end to end as root, with a real agent started with --lab and --allow-tunable: a
// file-system lab experiment from the UI, a vm.dirty_ratio A/B, an agent killed with SIGKILL
// in the middle of a tunable arm, and a cancel in the middle of a lab arm. Every one must leave
// the host as it found it: the sysctl back (read with sysctl -n), nothing mounted, no image left.
// Runs that should count are fio time-based runs of 6 s: the run checks flag anything shorter
// than 5 s, and a flagged run never reaches a verdict.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { type APIRequestContext, type Page } from "@playwright/test";
import { expect, test } from "../fixtures";
import { startAgent, type AgentHandle } from "../agent/agent-process";
import { apiTokenFor, bearer, signInAs } from "../helpers";

const root = path.resolve(__dirname, "..", "..");
const TUNABLES = "vm.dirty_ratio,vm.dirty_background_ratio";
let agent: AgentHandle | null = null;
let labDir = "";
let hostId = "";
let originalDirtyRatio = "";

const sysctl = (name: string) => execFileSync("sysctl", ["-n", name], { encoding: "utf8" }).trim();
/** Mounts and loop devices whose path lies under the lab dir. */
const labMounts = () => execFileSync("findmnt", ["-rn", "-o", "TARGET"], { encoding: "utf8" }).split("\n").filter((l) => l.startsWith(labDir));
/** 6 s of 4 KiB direct writes: long enough to count, short enough for a spec. */
const fioWrite = (direct: boolean) => ({ rw: "write", blockSizeKiB: 4, sizeMiB: 128, runtimeSec: 6, ioengine: "psync", iodepth: 1, numjobs: 1, direct });
const labLoops = () => execFileSync("losetup", ["-l", "-n", "-O", "BACK-FILE"], { encoding: "utf8" }).split("\n").filter((l) => l.includes(labDir));

interface ExperimentJson {
  id: string;
  status: string;
  decision: string | null;
  reverted: boolean | null;
  arms: { label: string; runIds: string[]; validRunIds: string[]; excluded: number; median: number | null; cv: number | null }[];
  verdict: { metric: string; baseline: string; arm: string; state: string; ratio: number | null; ciLow: number | null; ciHigh: number | null; confidence: number | null; halfWidthPct: number | null; sentence: string }[];
  runs: { id: string; armIndex: number; status: string; fsType: string | null; setup: { lab: { fsType: string; loopDevice: string; driver: string; removed: boolean } | null; tunables: { name: string; from: string; to: string; restored: boolean }[] } | null }[];
}

async function experiment(request: APIRequestContext, id: string): Promise<ExperimentJson> {
  const r = await request.get(`/api/experiments/${id}`);
  expect(r.status()).toBe(200);
  return (await r.json()) as ExperimentJson;
}

function start(baseURL: string, token?: string, stateDir?: string): AgentHandle {
  return startAgent({ server: baseURL, token, stateDir, scratch: agent?.scratch, extraArgs: ["--lab", labDir, "--allow-tunable", TUNABLES] });
}

test.describe.configure({ mode: "serial" });

test.beforeAll(() => {
  originalDirtyRatio = sysctl("vm.dirty_ratio");
  fs.mkdirSync(path.join(root, ".data"), { recursive: true });
  labDir = fs.mkdtempSync(path.join(root, ".data", "e2e-lab-"));
});

test.afterAll(async () => {
  await agent?.stop();
  // Whatever a failed test left: the original sysctl and no lab (the agent's own cleanup is what is tested above).
  if (sysctl("vm.dirty_ratio") !== originalDirtyRatio) execFileSync("sysctl", ["-q", "-w", `vm.dirty_ratio=${originalDirtyRatio}`]);
  if (agent) for (const dir of [agent.scratch, agent.stateDir]) fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(labDir, { recursive: true, force: true });
});

async function setUp(page: Page, baseURL: string) {
  await signInAs(page, "operator");
  if (agent) return;
  await page.goto("/hosts/new");
  await page.getByLabel("Host name").fill(`e2e-exp-${Date.now()}`);
  await page.getByRole("button", { name: "Add host" }).click();
  const token = (await page.getByTestId("registration-token").textContent())!.trim();
  agent = start(baseURL, token);
  await expect.poll(() => agent!.output(), { timeout: 20_000 }).toContain("registered as host");
  hostId = /\(([0-9a-f-]{36})\)/.exec(agent.output())![1]!;
}

test("an ext4 vs xfs vs ext3 fio experiment from the UI ends with a verdict and leaves nothing behind", async ({ page, baseURL }) => {
  test.setTimeout(300_000);
  await setUp(page, baseURL!);
  await page.goto("/experiments");
  await expect(page.getByTestId("experiments-empty").or(page.getByTestId("experiments-table"))).toBeVisible();

  await page.goto(`/experiments/new?host=${hostId}&probe=fio&preset=seq-write&kind=lab&fs=ext4,xfs,ext3&min=3&max=3&warmup=0`);
  const form = page.getByTestId("experiment-form");
  await expect(form.getByTestId("lab-arms")).toBeVisible();
  await expect(form.getByRole("checkbox", { name: "xfs" })).toBeChecked();
  await expect(form.getByRole("checkbox", { name: /^Warm-up/ })).not.toBeChecked();
  await form.getByLabel(/^Parameters/).fill(JSON.stringify(fioWrite(true)));
  await form.getByRole("button", { name: "Start experiment" }).click();
  await expect(page).toHaveURL(/\/experiments\/[0-9a-f-]{36}$/);
  const id = page.url().split("/").pop()!;

  await expect(page.getByTestId("experiment-plan")).toContainText("ext3");
  await expect(page.getByTestId("experiment-status")).toHaveText("finished", { timeout: 240_000 });
  // Bandwidth, IOPS and p99 latency for each of the two arms against ext4.
  await expect(page.getByTestId("verdict-sentence")).toHaveCount(6);
  await expect(page.getByTestId("verdict-sentence").first()).toContainText(/xfs|ext3/);
  await expect(page.getByTestId("confidence-explained")).toContainText("90 %");
  await expect(page.getByTestId("run-counted").filter({ hasText: "yes" })).toHaveCount(9);
  await expect(page.getByTestId("experiment-reverted")).toContainText("Every change was put back");
  await expect(page.getByTestId("arm-spread-chart").first()).toBeVisible();
  // The chart's median mark is the table's median (one median function for both).
  const tableMedian = (await page.getByTestId("arm-results").locator("tbody tr").first().locator("td").nth(3).textContent())!.trim();
  await expect(page.getByTestId("arm-spread-chart").first()).toHaveAttribute("aria-label", new RegExp(`ext4 median ${tableMedian.replace(/[.,]/g, "\\$&")} `));

  const e = await experiment(page.request, id);
  expect(e.status).toBe("FINISHED");
  expect(e.arms.map((a) => a.label)).toEqual(["ext4", "xfs", "ext3"]);
  expect(e.arms.every((a) => a.runIds.length === 3 && a.validRunIds.length === 3 && a.excluded === 0 && (a.median ?? 0) > 0)).toBe(true);
  expect(e.verdict.filter((v) => v.metric === "bw").map((v) => `${v.baseline}→${v.arm}`)).toEqual(["ext4→xfs", "ext4→ext3"]);
  // Three valid runs per arm: every line has a ratio, its exact 90 % interval and its precision.
  for (const v of e.verdict) {
    expect(["decided", "no-difference-detected"]).toContain(v.state);
    expect(v.confidence).toBeCloseTo(0.9, 6);
    expect(v.halfWidthPct).toBeGreaterThanOrEqual(0);
  }
  expect(e.reverted).toBe(true);
  for (const r of e.runs) {
    const fsType = e.arms[r.armIndex]!.label;
    expect(r.fsType).toBe(fsType);
    expect(r.setup?.lab).toMatchObject({ fsType, removed: true, loopDevice: expect.stringMatching(/^\/dev\/loop\d+$/) });
    // ext3 volumes are served by the ext4 driver on current kernels: the record says so.
    expect(r.setup?.lab?.driver).toBe(fsType === "xfs" ? "xfs" : "ext4");
  }
  expect(labMounts()).toEqual([]);
  expect(labLoops()).toEqual([]);
  expect(fs.readdirSync(labDir)).toEqual([]);

  // The run page shows the setup and links back.
  const ext3Run = e.runs.find((r) => e.arms[r.armIndex]!.label === "ext3")!;
  await page.goto(`/runs/${ext3Run.id}`);
  await expect(page.getByTestId("setup-driver")).toHaveText("ext3 volume served by the ext4 driver");
  await page.getByTestId("run-experiment").getByRole("link").click();
  await expect(page).toHaveURL(new RegExp(`/experiments/${id}$`));
  // A share link freezes the runs and the verdict; it reads without signing in.
  await page.getByRole("button", { name: "Share a frozen copy" }).click();
  await page.getByTestId("experiment-share-form").getByRole("button", { name: "Create share link" }).click();
  const shared = (await page.getByTestId("experiment-share-link").getByRole("link").getAttribute("href"))!;
  const anonymous = await page.context().browser()!.newContext();
  const reader = await anonymous.newPage();
  await reader.goto(`${baseURL}${shared}`);
  await expect(reader.getByTestId("shared-verdict")).toContainText(/xfs/);
  await anonymous.close();
  const csv = await (await page.request.get(`/api/experiments/${id}/export?format=csv`)).text();
  expect(csv.split("\r\n")[0]).toBe("arm,round,run,status,fs_type,metric,dims,value,unit,excluded_because");
  expect(csv).toMatch(/,ext3,bw,[^,]*direction=write/);
});

test("a vm.dirty_ratio A/B with a warm-up ends with a verdict and the sysctl at its original value", async ({ page, baseURL }) => {
  test.setTimeout(240_000);
  await setUp(page, baseURL!);
  const a = originalDirtyRatio === "10" ? "11" : "10";
  await page.goto(`/experiments/new?host=${hostId}&probe=fio&preset=seq-write&kind=tunables&tunable=vm.dirty_ratio&values=${a},30&min=3&max=3`);
  const form = page.getByTestId("experiment-form");
  await expect(form.getByTestId("tunable-arms")).toBeVisible();
  // The warm-up is on by default: one more run per arm, shown and not counted.
  await expect(form.getByRole("checkbox", { name: /^Warm-up/ })).toBeChecked();
  await form.getByLabel(/^Parameters/).fill(JSON.stringify(fioWrite(false)));
  await form.getByLabel("Target directory").selectOption(agent!.scratch);
  await form.getByRole("button", { name: "Start experiment" }).click();
  await expect(page).toHaveURL(/\/experiments\/[0-9a-f-]{36}$/);
  // While the warm-ups run there is no ratio, only where the rule stands.
  await expect(page.getByTestId("experiment-precision")).toContainText("of 3 valid runs per arm; target ±5 %; ");
  await expect(page.getByTestId("experiment-status")).toHaveText("finished", { timeout: 200_000 });
  await expect(page.getByTestId("verdict-sentence")).toHaveCount(3);
  await expect(page.getByTestId("run-counted").filter({ hasText: "warm-up (not counted)" })).toHaveCount(2);
  const e = await experiment(page.request, page.url().split("/").pop()!);
  expect(e.arms.map((x) => x.label)).toEqual([`vm.dirty_ratio=${a}`, "vm.dirty_ratio=30"]);
  expect(e.runs).toHaveLength(8);
  expect(e.arms.map((x) => [x.validRunIds.length, x.excluded])).toEqual([[3, 1], [3, 1]]);
  expect(e.verdict[0]!.sentence).toMatch(/vm.dirty_ratio=30/);
  expect(e.decision === "precision" || e.decision === "max").toBe(true);
  expect(e.runs.every((r) => r.setup?.tunables[0]?.restored === true && r.setup.tunables[0].from === originalDirtyRatio), JSON.stringify(e.runs.map((r) => [r.status, r.setup]))).toBe(true);
  expect(e.reverted).toBe(true);
  expect(sysctl("vm.dirty_ratio")).toBe(originalDirtyRatio);
  // The host page says what the agent may change, and that nothing is left changed.
  await page.goto(`/hosts/${hostId}`);
  const changes = page.getByTestId("host-changes");
  await expect(changes).toContainText("--lab");
  await expect(changes.getByTestId("host-tunable").filter({ hasText: "vm.dirty_ratio" }).first()).toContainText("yes");
  await expect(page.getByTestId("changed-now")).toHaveCount(0);
});

test("an agent killed with SIGKILL during a tunable arm restores the value when it starts again", async ({ page, baseURL }) => {
  test.setTimeout(180_000);
  await setUp(page, baseURL!);
  const value = originalDirtyRatio === "7" ? "8" : "7";
  const created = await page.request.post("/api/experiments", {
    data: { hostId, probe: "sar", params: { target: agent!.scratch, sections: ["u"], interval: 1, count: 30 }, arms: [{ tunables: { "vm.dirty_ratio": value } }, { tunables: { "vm.dirty_ratio": "30" } }], repeats: { min: 3, max: 3, warmup: false } },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  await expect.poll(() => sysctl("vm.dirty_ratio"), { timeout: 30_000 }).toBe(value);
  const stateDir = agent!.stateDir;
  await agent!.stop("SIGKILL");
  // Killed: nothing put it back.
  expect(sysctl("vm.dirty_ratio")).toBe(value);
  agent = start(baseURL!, undefined, stateDir);
  await expect.poll(() => sysctl("vm.dirty_ratio"), { timeout: 30_000 }).toBe(originalDirtyRatio);
  // The interrupted run ends the experiment truthfully: failed, nothing more queued.
  await expect.poll(async () => (await experiment(page.request, id)).status, { timeout: 60_000 }).toBe("FAILED");
  const e = await experiment(page.request, id);
  expect(e.runs.filter((r) => r.status === "QUEUED" || r.status === "RUNNING")).toEqual([]);
});

test("cancel in the middle of a lab arm reverts the setting, unmounts and deletes the image", async ({ page, baseURL }) => {
  test.setTimeout(180_000);
  await setUp(page, baseURL!);
  const value = originalDirtyRatio === "12" ? "13" : "12";
  const created = await page.request.post("/api/experiments", {
    data: { hostId, probe: "sar", params: { sections: ["u"], interval: 1, count: 30 }, arms: [{ fs: "ext4", tunables: { "vm.dirty_ratio": value } }, { fs: "xfs" }], repeats: { min: 3, max: 3, warmup: false } },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  await expect.poll(() => sysctl("vm.dirty_ratio"), { timeout: 60_000 }).toBe(value);
  expect(labMounts().length).toBe(1);
  await page.goto(`/experiments/${id}`);
  await page.getByRole("button", { name: "Cancel experiment" }).click();
  await page.getByTestId("cancel-confirm").getByRole("button", { name: "Yes, cancel it" }).click();
  await expect(page.getByTestId("experiment-status")).toHaveText("cancelled");
  await expect.poll(async () => (await experiment(page.request, id)).reverted, { timeout: 60_000 }).toBe(true);
  expect(sysctl("vm.dirty_ratio")).toBe(originalDirtyRatio);
  expect(labMounts()).toEqual([]);
  expect(labLoops()).toEqual([]);
  expect(fs.readdirSync(labDir)).toEqual([]);
  const e = await experiment(page.request, id);
  expect(e.runs.map((r) => r.status).sort()).toEqual(Array(e.runs.length).fill("CANCELLED"));
  await page.reload();
  await expect(page.getByTestId("experiment-reverted")).toContainText("Every change was put back");
});

test("viewers read experiments but cannot start or cancel one; invalid arms are refused with field errors", async ({ page, baseURL, request }) => {
  await setUp(page, baseURL!);
  const bad = await page.request.post("/api/experiments", {
    data: { hostId, probe: "dd", params: { target: agent!.scratch, sizeMiB: 16 }, arms: [{ tunables: { "vm.swappiness": 10 } }, { fs: "zfs" }] },
  });
  expect(bad.status()).toBe(400);
  const body = (await bad.json()) as { fieldErrors: Record<string, string[]> };
  expect(body.fieldErrors["arms.0.tunables.vm.swappiness"]?.[0]).toMatch(/--allow-tunable/);
  expect(body.fieldErrors["arms.1.fs"]?.[0]).toMatch(/not a lab file system/);
  // Fewer than 3 valid runs per arm give no interval: refused, naming the field.
  const few = await page.request.post("/api/experiments", { data: { hostId, probe: "dd", params: { target: agent!.scratch }, arms: [{ fs: "ext4" }, { fs: "xfs" }], repeats: { min: 2, max: 2 } } });
  expect(few.status()).toBe(400);
  expect(((await few.json()) as { fieldErrors: Record<string, string[]> }).fieldErrors["repeats.min"]?.[0]).toMatch(/At least 3 valid runs/);
  const viewer = bearer(await apiTokenFor("viewer"));
  expect((await request.post("/api/experiments", { headers: viewer, data: { hostId, probe: "dd", params: {}, arms: [{ fs: "ext4" }, { fs: "xfs" }] } })).status()).toBe(403);
  const list = await request.get("/api/experiments", { headers: viewer });
  expect(list.status()).toBe(200);
  const some = ((await list.json()) as { experiments: { id: string }[] }).experiments[0]!;
  expect((await request.post(`/api/experiments/${some.id}/cancel`, { headers: viewer })).status()).toBe(403);
  expect((await request.get(`/api/experiments/${some.id}`, { headers: viewer })).status()).toBe(200);
});
