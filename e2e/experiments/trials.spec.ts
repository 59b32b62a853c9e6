// One-click experiments (trials) end to end as root with a real agent: the positive controls
// (the storage guide's vm.dirty_ratio 20 vs 5 and read_ahead_kb 128 vs 16, sized by the form
// for this host, must detect their effect) and vm.zone_reclaim_mode refused on this single-node
// machine by the form and by the API. Every sysctl and queue setting touched is put back in
// afterAll whatever happened.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { type Page } from "@playwright/test";
import { expect, test } from "../fixtures";
import { addHostWithAgent, removeAgent, type AgentHandle } from "../agent/agent-process";
import { signInAs } from "../helpers";

const root = path.resolve(__dirname, "..", "..");
const TUNABLES = "vm.dirty_ratio,vm.zone_reclaim_mode,queue/read_ahead_kb,vm.drop_caches";
let agent: AgentHandle | null = null;
let hostId = "";
let disk = "";
const original: Record<string, string> = {};

const sysctl = (name: string) => execFileSync("sysctl", ["-n", name], { encoding: "utf8" }).trim();
const readAheadFile = () => `/sys/block/${disk}/queue/read_ahead_kb`;

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
  await removeAgent(agent);
});

async function setUp(page: Page, baseURL: string) {
  await signInAs(page, "operator");
  if (agent) return;
  ({ agent, hostId } = await addHostWithAgent(page, { baseURL, name: "e2e-trials", extraArgs: ["--allow-tunable", TUNABLES] }));
}

interface ExperimentJson {
  status: string;
  reverted: boolean | null;
  verdict: { metric: string; baseline: string; arm: string; state: string; ratio: number | null; ciLow: number | null; ciHigh: number | null; sentence: string }[];
  excluded: { id: string; armIndex: number; round: number; reasons: string[] }[];
}

/** Starts the form as the trial sized it, at least 4 valid runs per arm, and waits for the verdict. */
async function runFromForm(page: Page, timeout: number, maxRuns: number): Promise<ExperimentJson> {
  const form = page.getByTestId("experiment-form");
  await form.getByLabel("Target directory").selectOption(agent!.scratch);
  await expect(form.getByTestId("trial-offered")).toBeVisible();
  await form.getByLabel(/^At least/).fill("4");
  await form.getByLabel(/^At most/).fill(String(maxRuns));
  await form.getByRole("button", { name: "Start experiment" }).click();
  await expect(page).toHaveURL(/\/experiments\/[0-9a-f-]{36}$/);
  const id = page.url().split("/").pop()!;
  await expect(page.getByTestId("experiment-status")).toHaveText("finished", { timeout });
  return (await (await page.request.get(`/api/experiments/${id}`)).json()) as ExperimentJson;
}

const lineOf = (e: ExperimentJson, metric: string) => {
  const line = e.verdict.find((v) => v.metric === metric);
  // Runs the checks left out, with why: what to read when there is no line or it is collecting.
  expect(!line || line.state === "collecting" ? e.excluded.filter((x) => x.reasons.join() !== "warm-up") : [], line?.sentence ?? "no verdict line").toEqual([]);
  return line!;
};

/** A finished experiment whose changes were put back, and whose second arm's bandwidth is lower with an interval below 1. */
function expectLowerBandwidth(e: ExperimentJson) {
  expect(e.status).toBe("FINISHED");
  expect(e.reverted).toBe(true);
  const bw = lineOf(e, "bw");
  expect(bw.state, bw.sentence).toBe("decided");
  expect(bw.ciHigh!, bw.sentence).toBeLessThan(1);
}

test("the storage guide's vm.dirty_ratio 20 vs 5, sized for this host, shows the low arm's writer paced", async ({ page, baseURL }) => {
  test.setTimeout(480_000);
  await setUp(page, baseURL!);
  await page.goto("/guides/storage-media-disk-flash-memory");
  const href = await page.getByRole("link", { name: /vm.dirty_ratio 20 against 5/ }).getAttribute("href");
  await page.goto(`${href!}&host=${hostId}`);
  await expect(page.getByTestId("experiment-form").getByLabel(/^Parameters/)).toHaveValue(/"overwrite": true/);
  // Past its freerun point the kernel sleeps the low arm's writer to pace it to the disk, while
  // the high arm's rewrites cached pages at memory speed: lower bandwidth, an interval below 1.
  // The high arm's rate is memory's and varies (a coefficient of variation up to 17 % in CI):
  // up to ten rounds, so a real difference of 15–40 % is decided.
  expectLowerBandwidth(await runFromForm(page, 440_000, 10));
  expect(sysctl("vm.dirty_ratio")).toBe(original["vm.dirty_ratio"]);
});

test("read_ahead_kb 128 vs 16 on cold passes of buffered 4 KiB reads shows the smaller window slower", async ({ page, baseURL }) => {
  test.setTimeout(420_000);
  await setUp(page, baseURL!);
  await page.goto(`/experiments/new?host=${hostId}&kind=tunables&tunable=queue/read_ahead_kb&probe=fio&preset=seq-read&values=128,16&trial=queue/read_ahead_kb`);
  // Each run lays out a 1.9 GiB file and reads it six times: four rounds are enough to decide.
  expectLowerBandwidth(await runFromForm(page, 400_000, 4));
  expect(fs.readFileSync(readAheadFile(), "utf8").trim()).toBe(original.readAhead);
});

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
