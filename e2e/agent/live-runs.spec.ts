import fs from "node:fs";
import os from "node:os";
import { type Page } from "@playwright/test";
import { expect, test } from "../fixtures";
import { apiTokenFor, bearer, signInAs } from "../helpers";
import { startAgent, type AgentHandle } from "./agent-process";

let agent: AgentHandle | null = null;
let hostId = "";

test.describe.configure({ mode: "serial" });

test.afterAll(async () => {
  await agent?.stop();
  if (agent) for (const dir of [agent.scratch, agent.stateDir]) fs.rmSync(dir, { recursive: true, force: true });
});

async function launch(page: Page, preset: string, target: string, params?: Record<string, unknown>) {
  await page.goto(`/runs/new?host=${hostId}`);
  const form = page.getByTestId("launch-form");
  await form.getByLabel("Preset").selectOption(preset);
  await form.getByLabel("Target directory").selectOption(target);
  if (params) {
    const current = JSON.parse(await form.getByLabel(/^Parameters/).inputValue()) as Record<string, unknown>;
    await form.getByLabel(/^Parameters/).fill(JSON.stringify({ ...current, ...params }));
  }
  await form.getByRole("button", { name: "Launch" }).click();
  await expect(page).toHaveURL(/\/runs\/[0-9a-f-]{36}$/);
  return page.url().split("/").pop()!;
}

const terminal = (page: Page) => page.getByTestId("run-terminal").locator(".xterm-rows");

test("register a host in the UI and start its agent with the one-time command", async ({ page, baseURL }) => {
  await signInAs(page, "operator");
  await page.goto("/hosts/new");
  await page.getByLabel("Host name").fill(`e2e-host-${Date.now()}`);
  await page.getByRole("button", { name: "Add host" }).click();
  const token = (await page.getByTestId("registration-token").textContent())!.trim();
  await expect(page.getByTestId("agent-command")).toContainText(`PROBEBOOK_AGENT_TOKEN=${token} `);
  await expect(page.getByTestId("agent-command")).not.toContainText("--token");
  agent = startAgent({ server: baseURL!, token });
  await expect.poll(() => agent!.output(), { timeout: 20_000 }).toContain("registered as host");
  hostId = /\(([0-9a-f-]{36})\)/.exec(agent.output())![1]!;
  await page.goto(`/hosts/${hostId}`);
  await expect(page.getByTestId("agent-state")).toHaveText("online");
  await expect(page.getByRole("cell", { name: "/dev/shm" })).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: "/dev/shm" }).getByRole("cell", { name: "tmpfs" }).first()).toBeVisible();
});

test("the QD1 random-read preset on /dev/shm proposes at most a quarter of the RAM; on disk, no more than 60 s can reach", async ({ page }) => {
  await signInAs(page, "operator");
  await page.goto(`/runs/new?host=${hostId}`);
  const form = page.getByTestId("launch-form");
  await form.getByLabel("Preset").selectOption("fio:rand-read-4k");
  const sizeMiB = async () => (JSON.parse(await form.getByLabel(/^Parameters/).inputValue()) as { sizeMiB: number }).sizeMiB;
  await form.getByLabel("Target directory").selectOption("/dev/shm");
  await expect(form.getByTestId("size-beyond-ram")).toContainText("a quarter of the RAM");
  // The agent's profile reads MemTotal, as os.totalmem() does; /dev/shm is tmpfs on this host.
  const onShm = await sizeMiB();
  expect(onShm).toBeGreaterThan(0);
  expect(onShm * 2 ** 20).toBeLessThanOrEqual(os.totalmem() / 4);
  // The scratch dir is on disk: O_DIRECT for 60 s at QD1 reaches 11.4 GiB at most (50 000 IOPS).
  await form.getByLabel("Target directory").selectOption(agent!.scratch);
  await expect(form.getByTestId("size-beyond-ram")).not.toContainText("a quarter of the RAM");
  const onDisk = await sizeMiB();
  expect(onDisk).toBeLessThanOrEqual(11 * 1024);
  expect(onDisk * 2 ** 20).toBeLessThanOrEqual(fs.statfsSync(agent!.scratch).bavail * fs.statfsSync(agent!.scratch).bsize);
});

test("launch dd from the UI, watch it live and see the parsed result", async ({ page }) => {
  await signInAs(page, "operator");
  const id = await launch(page, "dd:write-direct", agent!.scratch, { sizeMiB: 32 });
  await expect(terminal(page)).toContainText("copied", { timeout: 30_000 });
  await expect(page.getByTestId("run-status")).toHaveText("succeeded", { timeout: 30_000 });
  await expect(page.getByTestId("result-chart").first()).toBeVisible();
  await page.getByText("All measurements").click();
  // Sizes are shown in MiB, as everywhere in the app.
  await expect(page.getByTestId("measurements")).toContainText(/32\s*MiB/);
  // The guides' disk/flash/memory figures are one click away.
  await page.getByTestId("compare-reference").click();
  await expect(page).toHaveURL(/\/compare\?runs=/);
  await expect(page.getByText(/Baidu/).first()).toBeVisible();
  expect(id).toMatch(/[0-9a-f-]{36}/);
});

test("launch sar from the UI and see samples arrive before it ends", async ({ page }) => {
  await signInAs(page, "operator");
  await launch(page, "sar:paging", "/dev/shm", { count: 4 });
  await expect(terminal(page)).toContainText("pgscank/s", { timeout: 15_000 });
  await expect(page.getByTestId("run-status")).toHaveText("succeeded", { timeout: 30_000 });
  await expect(terminal(page)).toContainText("Average:");
});

test("cancel a running iozone from the UI", async ({ page }) => {
  await signInAs(page, "operator");
  // The ext2/3/4 article's 4 GiB run takes minutes: long enough to cancel in the middle.
  await launch(page, "iozone:ext-article", agent!.scratch);
  await expect(terminal(page)).toContainText("Run began", { timeout: 30_000 });
  const clicked = Date.now();
  await page.getByRole("button", { name: "Cancel run" }).click();
  await expect(page.getByTestId("run-status")).toHaveText("cancelled", { timeout: 15_000 });
  expect(Date.now() - clicked).toBeLessThan(10_000);
});

test("kill -9 the agent during sar, start it again: no chunk lost, the run ends truthfully", async ({ request, baseURL }) => {
  const token = await apiTokenFor("operator");
  const created = await request.post("/api/runs", {
    headers: bearer(token),
    data: { hostId, probe: "sar", params: { target: "/dev/shm", sections: ["u"], interval: 1, count: 30 } },
  });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  const sampleTimes = (log: string) => log.split(/\r?\n/).filter((l) => /^\d{2}:\d{2}:\d{2}\s+all\s/.test(l)).map((l) => l.slice(0, 8));
  const storedLog = async () => (await request.get(`/api/runs/${id}/log`, { headers: bearer(token) })).text();
  await expect.poll(async () => sampleTimes(await storedLog()).length, { timeout: 30_000 }).toBeGreaterThanOrEqual(4);
  await agent!.stop("SIGKILL");
  agent = startAgent({ server: baseURL!, stateDir: agent!.stateDir, scratch: agent!.scratch });
  await expect
    .poll(async () => ((await (await request.get(`/api/runs/${id}`, { headers: bearer(token) })).json()) as { status: string }).status, { timeout: 30_000 })
    .toBe("LOST");
  const run = (await (await request.get(`/api/runs/${id}`, { headers: bearer(token) })).json()) as { error: string };
  expect(run.error).toMatch(/agent stopped while the probe was running/);
  // Every sample line the server has is whole and in order: the spool delivered what the pty printed.
  const times = sampleTimes(await storedLog());
  expect(times.length).toBeGreaterThanOrEqual(4);
  expect([...times].sort()).toEqual(times);
  // The restarted agent still takes new work.
  const next = await request.post("/api/runs", { headers: bearer(token), data: { hostId, probe: "dd", params: { target: "/dev/shm", sizeMiB: 8 } } });
  const nextId = ((await next.json()) as { id: string }).id;
  await expect
    .poll(async () => ((await (await request.get(`/api/runs/${nextId}`, { headers: bearer(token) })).json()) as { status: string }).status, { timeout: 30_000 })
    .toBe("SUCCEEDED");
});
