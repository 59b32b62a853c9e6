import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "../fixtures";
import { signInAs } from "../helpers";
import { startAgent, type AgentHandle } from "./agent-process";

// The agent's PATH: a directory we control holding links to every program of /usr/bin but fio,
// so fio is "not installed" until the test links it in.
let bin = "";
let agent: AgentHandle | null = null;
let hostId = "";

test.describe.configure({ mode: "serial" });

test.beforeAll(() => {
  bin = fs.mkdtempSync(path.join(os.tmpdir(), "pb-path-"));
  for (const name of fs.readdirSync("/usr/bin")) if (name !== "fio") fs.symlinkSync(path.join("/usr/bin", name), path.join(bin, name));
});

test.afterAll(async () => {
  await agent?.stop();
  for (const dir of [bin, agent?.scratch, agent?.stateDir]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

test("a tool installed while the agent runs becomes usable after Re-check tools, without a restart", async ({ page }) => {
  test.setTimeout(120_000);
  await signInAs(page, "operator");
  await page.goto("/hosts/new");
  await page.getByLabel("Host name").fill(`e2e-tools-${Date.now()}`);
  await page.getByRole("button", { name: "Add host" }).click();
  const token = (await page.getByTestId("registration-token").textContent())!.trim();
  agent = startAgent({ server: new URL(page.url()).origin, token, env: { PATH: `${bin}:/usr/sbin:/sbin` } });
  await expect.poll(() => agent!.output(), { timeout: 20_000 }).toContain("registered as host");
  hostId = /\(([0-9a-f-]{36})\)/.exec(agent.output())![1]!;
  expect(agent.output()).toContain("fio missing");

  // The host page names the exact command for this machine's distribution (Debian here).
  await page.goto(`/hosts/${hostId}`);
  const missing = page.getByTestId("missing-tools");
  await expect(missing).toContainText("fio is not installed");
  await expect(missing).toContainText("sudo apt-get update && sudo apt-get install -y fio");
  await expect(page.getByTestId("tools-checked")).toContainText(/Checked \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
  await page.goto(`/runs/new?host=${hostId}&probe=fio&preset=rand-read-4k`);
  const form = page.getByTestId("launch-form");
  await expect(form.getByRole("status")).toContainText("apt-get install -y fio");
  await expect(form.getByRole("button", { name: "Launch" })).toBeDisabled();

  // "apt-get install fio": the binary appears on the agent's PATH.
  fs.symlinkSync("/usr/bin/fio", path.join(bin, "fio"));
  await page.goto(`/hosts/${hostId}`);
  await page.getByRole("button", { name: "Re-check tools" }).click();
  // The page follows the request by itself until the agent has answered.
  await expect(page.getByTestId("host-tools")).toContainText(/fio: \d/, { timeout: 20_000 });
  await expect(page.getByTestId("missing-tools")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Re-check tools" })).toBeEnabled();
  expect(agent.output()).toContain("tools re-checked (requested from the dashboard)");

  // The same agent process now runs fio.
  await page.goto(`/runs/new?host=${hostId}&probe=fio&preset=rand-read-4k`);
  await form.getByLabel("Target directory").selectOption(agent.scratch);
  const current = JSON.parse(await form.getByLabel(/^Parameters/).inputValue()) as Record<string, unknown>;
  await form.getByLabel(/^Parameters/).fill(JSON.stringify({ ...current, sizeMiB: 16, runtimeSec: 2, ioengine: "psync", iodepth: 1 }));
  await expect(form.getByRole("button", { name: "Launch" })).toBeEnabled();
  await form.getByRole("button", { name: "Launch" }).click();
  await expect(page).toHaveURL(/\/runs\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId("run-status")).toHaveText("succeeded", { timeout: 30_000 });
  expect(agent.child.exitCode).toBeNull();
});
