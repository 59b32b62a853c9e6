// The run page with a real agent (issue 16): the status badge follows the run live, repeats say
// "1 of 3" and lead to their median, the host profile captured with the run is shown, sar is
// not labelled with its target's file system, and the agent leaves no scratch files behind —
// after a cancel, and after being killed in the middle of a run.
import fs from "node:fs";
import { type APIRequestContext, type Page } from "@playwright/test";
import { expect, test } from "../fixtures";
import { apiTokenFor, bearer, signInAs } from "../helpers";
import { startAgent, type AgentHandle } from "./agent-process";

test.describe.configure({ mode: "serial" });

let agent: AgentHandle | null = null;
let hostId = "";
let token = "";

test.beforeAll(async ({ request, baseURL }) => {
  token = await apiTokenFor("operator");
  const created = await request.post("/api/hosts", { headers: bearer(token), data: { name: `run-page-${Date.now()}` } });
  expect(created.status()).toBe(201);
  const host = (await created.json()) as { id: string; registrationToken: string };
  hostId = host.id;
  agent = startAgent({ server: baseURL!, token: host.registrationToken });
  await expect.poll(() => agent!.output(), { timeout: 20_000 }).toContain("registered as host");
});

test.afterAll(async () => {
  await agent?.stop();
  if (agent) for (const dir of [agent.scratch, agent.stateDir]) fs.rmSync(dir, { recursive: true, force: true });
});

async function queue(request: APIRequestContext, probe: string, params: Record<string, unknown>, repeats = 1): Promise<string[]> {
  const res = await request.post("/api/runs", { headers: bearer(token), data: { hostId, probe, params, repeats } });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { ids: string[] }).ids;
}

async function runOf(request: APIRequestContext, id: string) {
  return (await (await request.get(`/api/runs/${id}`, { headers: bearer(token) })).json()) as { status: string; fsType: string | null; medium: string | null };
}

async function ended(request: APIRequestContext, id: string, status = "SUCCEEDED") {
  await expect.poll(async () => (await runOf(request, id)).status, { timeout: 60_000, intervals: [250, 500, 1000] }).toBe(status);
}

const runDirs = () => fs.readdirSync(agent!.scratch).filter((n) => n.startsWith("probebook-run-"));
const terminal = (page: Page) => page.getByTestId("run-terminal").locator(".xterm-rows");

test("defect 3: the status badge goes from queued to running while output streams, then to its end", async ({ page, request }) => {
  await signInAs(page, "viewer");
  // The agent is busy with a first sar, so the second is still queued when its page opens.
  const [first] = await queue(request, "sar", { target: "/dev/shm", sections: ["B"], interval: 1, count: 3 });
  const [second] = await queue(request, "sar", { target: "/dev/shm", sections: ["B"], interval: 1, count: 4 });
  await page.goto(`/runs/${second}`);
  await expect(page.getByTestId("run-status")).toHaveText("queued");
  await expect(page.getByTestId("run-status")).toHaveText("running", { timeout: 20_000 });
  await expect(terminal(page)).toContainText("pgpgin/s", { timeout: 15_000 });
  expect(await page.getByTestId("run-status").textContent()).toBe("running");
  await expect(page.getByTestId("run-status")).toHaveText("succeeded", { timeout: 30_000 });
  await ended(request, first!);

  // sar measures the machine: no "tmpfs · memory" from the directory it was started in.
  const sar = await runOf(request, second!);
  expect(sar).toMatchObject({ fsType: null, medium: null });
  await expect(page.locator("h1 + p.muted")).not.toContainText("tmpfs");
  // sar -B's traffic has a chart of its own.
  await expect(page.getByText("sar paging: pages in/out and faults")).toBeVisible();
});

test("defect 5 and 6: repeats say 1 of 3, link to each other and to their median; the run's host profile is shown", async ({ page, request }) => {
  await signInAs(page, "operator");
  await page.goto(`/runs/new?host=${hostId}&probe=dd&preset=write-direct`);
  const form = page.getByTestId("launch-form");
  await form.getByLabel("Target directory").selectOption(agent!.scratch);
  const current = JSON.parse(await form.getByLabel(/^Parameters/).inputValue()) as Record<string, unknown>;
  await form.getByLabel(/^Parameters/).fill(JSON.stringify({ ...current, sizeMiB: 8 }));
  await form.getByLabel(/^Repeats/).fill("3");
  await form.getByRole("button", { name: "Launch" }).click();
  await expect(page).toHaveURL(/\/runs\/[0-9a-f-]{36}$/);
  const nav = page.getByTestId("repeat-nav");
  await expect(nav).toContainText("Repeat 1 of 3");
  const others = await nav.getByRole("link").evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).pathname));
  expect(others).toHaveLength(2);
  for (const href of others) await ended(request, href.split("/").pop()!);
  await ended(request, page.url().split("/").pop()!);
  await page.reload();
  await nav.getByTestId("repeats-median").click();
  await expect(page).toHaveURL(/\/compare\?runs=/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Compare 3 runs in 1 series");
  await page.goBack();

  // The profile the agent captured when the run ended.
  const profile = page.getByTestId("run-profile");
  await expect(profile).toContainText(agent!.scratch);
  await expect(profile).toContainText("File system");
  await expect(profile).toContainText("Kernel");
  await expect(profile).toContainText("vm.dirty_ratio");
});

test("defect 10 and cleanup: a cancelled dd write leaves no scratch file", async ({ page, request }) => {
  await signInAs(page, "operator");
  // Buffered 2 GiB with fdatasync: seconds of writing, long enough to cancel in the middle.
  const [id] = await queue(request, "dd", { target: agent!.scratch, sizeMiB: 2048, mode: "write", direct: false, fdatasync: true });
  await expect.poll(async () => (await runOf(request, id!)).status, { timeout: 20_000 }).toBe("RUNNING");
  await expect.poll(runDirs, { timeout: 10_000 }).toHaveLength(1);
  await page.goto(`/runs/${id}`);
  await page.getByRole("button", { name: "Cancel run" }).click();
  await ended(request, id!, "CANCELLED");
  expect(runDirs()).toEqual([]);
});

test("an agent killed in the middle of a run removes the run's directory when it starts again", async ({ request, baseURL }) => {
  const [id] = await queue(request, "dd", { target: agent!.scratch, sizeMiB: 2048, mode: "write", direct: false, fdatasync: true });
  await expect.poll(async () => (await runOf(request, id!)).status, { timeout: 20_000 }).toBe("RUNNING");
  await expect.poll(runDirs, { timeout: 10_000 }).toHaveLength(1);
  const left = runDirs()[0]!;
  await agent!.stop("SIGKILL");
  expect(runDirs()).toEqual([left]);
  agent = { ...startAgent({ server: baseURL!, stateDir: agent!.stateDir, scratch: agent!.scratch }), scratch: agent!.scratch };
  await expect.poll(() => agent!.output(), { timeout: 20_000 }).toContain(`removed ${agent!.scratch}/${left}`);
  expect(runDirs()).toEqual([]);
  // The interrupted run ends as LOST with its output kept, as before.
  await ended(request, id!, "LOST");
});
