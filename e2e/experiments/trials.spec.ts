// One-click experiments (trials) end to end as root with a real agent: the storage guide's
// vm.dirty_ratio experiment, sized by the form for this host, detects its effect; a read_ahead_kb
// experiment (buffered 4 KiB reads after a cache drop) detects its effect; vm.zone_reclaim_mode
// is refused on this single-node machine by the form and by the API. Every sysctl and queue
// setting touched is put back in afterAll whatever happened.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { startAgent, type AgentHandle } from "../agent/agent-process";
import { signInAs } from "../helpers";

const root = path.resolve(__dirname, "..", "..");
const TUNABLES = "vm.dirty_ratio,vm.zone_reclaim_mode,queue/read_ahead_kb,vm.drop_caches";
let agent: AgentHandle | null = null;
let hostId = "";
let disk = "";
const original: Record<string, string> = {};

const sysctl = (name: string) => execFileSync("sysctl", ["-n", name], { encoding: "utf8" }).trim();
const readAheadFile = () => `/sys/block/${disk}/queue/read_ahead_kb`;

interface ExperimentJson {
  status: string;
  reverted: boolean | null;
  verdict: { metric: string; baseline: string; arm: string; ratio: number; ciLow: number; ciHigh: number; sentence: string }[];
  runs: { status: string; setup: { tunables: { name: string; restored: boolean }[] } | null }[];
}

test.describe.configure({ mode: "serial" });

test.beforeAll(() => {
  fs.mkdirSync(path.join(root, ".data"), { recursive: true });
  for (const name of ["vm.dirty_ratio", "vm.dirty_background_ratio", "vm.zone_reclaim_mode"]) original[name] = sysctl(name);
  // The whole disk under .data, where the agent's scratch dir lives.
  const source = execFileSync("findmnt", ["-n", "-o", "SOURCE", "--target", path.join(root, ".data")], { encoding: "utf8" }).trim();
  disk = execFileSync("lsblk", ["-n", "-d", "-o", "PKNAME", source], { encoding: "utf8" }).trim() || path.basename(source);
  original.readAhead = fs.readFileSync(readAheadFile(), "utf8").trim();
});

test.afterAll(async () => {
  await agent?.stop();
  for (const name of ["vm.dirty_ratio", "vm.dirty_background_ratio", "vm.zone_reclaim_mode"]) {
    if (sysctl(name) !== original[name]) execFileSync("sysctl", ["-q", "-w", `${name}=${original[name]}`]);
  }
  if (fs.readFileSync(readAheadFile(), "utf8").trim() !== original.readAhead) fs.writeFileSync(readAheadFile(), original.readAhead!);
  if (agent) for (const dir of [agent.scratch, agent.stateDir]) fs.rmSync(dir, { recursive: true, force: true });
});

async function setUp(page: Page, baseURL: string) {
  await signInAs(page, "operator");
  if (agent) return;
  await page.goto("/hosts/new");
  await page.getByLabel("Host name").fill(`e2e-trials-${Date.now()}`);
  await page.getByRole("button", { name: "Add host" }).click();
  const token = (await page.getByTestId("registration-token").textContent())!.trim();
  agent = startAgent({ server: baseURL, token, allow: undefined, extraArgs: ["--allow-tunable", TUNABLES] });
  await expect.poll(() => agent!.output(), { timeout: 20_000 }).toContain("registered as host");
  hostId = /\(([0-9a-f-]{36})\)/.exec(agent.output())![1]!;
}

/** Starts the form as it stands (sized by the trial), with three rounds, and waits for the verdict. */
async function runFromForm(page: Page, timeout: number): Promise<ExperimentJson> {
  const form = page.getByTestId("experiment-form");
  await expect(form.getByTestId("trial-offered")).toBeVisible();
  await form.getByLabel("Target directory").selectOption(agent!.scratch);
  await form.getByLabel("At least (rounds)").fill("3");
  await form.getByLabel("At most (rounds)").fill("3");
  await form.getByRole("button", { name: "Start experiment" }).click();
  await expect(page).toHaveURL(/\/experiments\/[0-9a-f-]{36}$/);
  const id = page.url().split("/").pop()!;
  await expect(page.getByTestId("experiment-status")).toHaveText("finished", { timeout });
  return (await (await page.request.get(`/api/experiments/${id}`)).json()) as ExperimentJson;
}

test("vm.zone_reclaim_mode is refused on a single-node host, in the form and by the API", async ({ page, baseURL }) => {
  test.setTimeout(60_000);
  await setUp(page, baseURL!);
  await page.goto("/guides/linux-memory-numa-databases");
  const href = await page.getByRole("link", { name: /vm.zone_reclaim_mode 0 against 1/ }).getAttribute("href");
  await page.goto(`${href!}&host=${hostId}`);
  await expect(page.getByTestId("trial-not-offered")).toContainText("one NUMA node: zone reclaim has no other node to prefer");
  await expect(page.getByRole("button", { name: "Start experiment" })).toBeDisabled();
  const r = await page.request.post("/api/experiments", {
    data: { hostId, probe: "fio", params: { target: agent!.scratch, rw: "read", sizeMiB: 64, runtimeSec: 6, direct: false }, arms: [{ tunables: { "vm.zone_reclaim_mode": "0" } }, { tunables: { "vm.zone_reclaim_mode": "1" } }], repeats: { min: 3, max: 3 } },
  });
  expect(r.status()).toBe(400);
  const body = (await r.json()) as { fieldErrors: Record<string, string[]> };
  expect(body.fieldErrors["arms.1.tunables.vm.zone_reclaim_mode"]?.[0]).toMatch(/one NUMA node/);
  expect(sysctl("vm.zone_reclaim_mode")).toBe(original["vm.zone_reclaim_mode"]);
});

test("the storage guide's vm.dirty_ratio 20 vs 5, sized for this host, shows the low arm paced", async ({ page, baseURL }) => {
  test.setTimeout(240_000);
  await setUp(page, baseURL!);
  await page.goto("/guides/storage-media-disk-flash-memory");
  const href = await page.getByRole("link", { name: /vm.dirty_ratio 20 against 5/ }).getAttribute("href");
  await page.goto(`${href!}&host=${hostId}`);
  const params = page.getByTestId("experiment-form").getByLabel(/^Parameters/);
  await expect(params).toHaveValue(/"direct": false/);
  const e = await runFromForm(page, 200_000);
  expect(e.status).toBe("FINISHED");
  expect(e.reverted).toBe(true);
  const bw = e.verdict.find((v) => /bandwidth/.test(v.metric) || /bandwidth/.test(v.sentence));
  expect(bw, JSON.stringify(e.verdict)).toBeDefined();
  // dirty_ratio 5 paces the writer to the disk; 20 lets it rewrite cached pages: a real drop.
  expect(bw!.ciHigh, bw!.sentence).toBeLessThan(1);
  expect(sysctl("vm.dirty_ratio")).toBe(original["vm.dirty_ratio"]);
});

test("read_ahead_kb 16 vs 128 on buffered 4 KiB reads after a cache drop shows the larger window faster", async ({ page, baseURL }) => {
  test.setTimeout(600_000);
  await setUp(page, baseURL!);
  await page.goto(`/experiments/new?host=${hostId}&kind=tunables&tunable=queue/read_ahead_kb&probe=fio&preset=seq-read&values=16,128&trial=queue/read_ahead_kb`);
  await expect(page.getByRole("checkbox", { name: /Drop the page cache/ })).toBeChecked();
  const e = await runFromForm(page, 560_000);
  expect(e.status).toBe("FINISHED");
  expect(e.reverted).toBe(true);
  const bw = e.verdict.find((v) => /bandwidth/.test(v.metric) || /bandwidth/.test(v.sentence));
  expect(bw, JSON.stringify(e.verdict)).toBeDefined();
  expect(bw!.ciLow, bw!.sentence).toBeGreaterThan(1);
  expect(fs.readFileSync(readAheadFile(), "utf8").trim()).toBe(original.readAhead);
});
