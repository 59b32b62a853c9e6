// One-click experiments (trials) end to end as root with a real agent: vm.zone_reclaim_mode is
// refused on this single-node machine by the form and by the API. Every sysctl and queue setting
// touched is put back in afterAll whatever happened.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
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
