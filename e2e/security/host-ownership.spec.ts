// Issue 27, items 3, 4 and 9, end to end. A second operator can no longer take over a host by
// re-registering it (no button, and the server action refuses it); deleting a host keeps
// another user's experiment, shown as from a removed host, and the audit says what went; a
// revoked agent may deliver the setup report of the arm it had in flight, and nothing else;
// a setup report is refused for a run whose job carried no setup.
import type { Browser, BrowserContext, Page } from "@playwright/test";
import { expect, test } from "../fixtures";
import { addHostWithAgent, removeAgent, type AgentHandle } from "../agent/agent-process";
import { apiTokenFor, bearer, registerFakeAgent, signInAs } from "../helpers";

let agents: AgentHandle[] = [];
test.afterEach(async () => {
  for (const a of agents) await removeAgent(a);
  agents = [];
});

/** A second signed-in operator in a browser context of its own. */
async function secondOperator(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInAs(page, "operator");
  return { context, page };
}

test("a second operator cannot re-register someone else's host; its owner can", async ({ page, browser, baseURL }) => {
  test.setTimeout(120_000);
  await signInAs(page, "operator");
  const { agent, hostId } = await addHostWithAgent(page, { baseURL: baseURL!, name: "e2e-owned" });
  agents.push(agent);
  const button = (p: Page) => p.getByRole("button", { name: "Revoke agent credential and re-register" });

  // The owner's page offers it. Its server action request is captured (and not sent) to replay it as the other operator.
  await page.goto(`/hosts/${hostId}`);
  await expect(button(page)).toBeVisible();
  let captured: { headers: Record<string, string>; body: Buffer } | null = null;
  await page.route(`**/hosts/${hostId}`, async (route) => {
    const req = route.request();
    if (req.method() !== "POST") return route.continue();
    captured = { headers: req.headers(), body: req.postDataBuffer() ?? Buffer.alloc(0) };
    await route.abort();
  });
  await button(page).click();
  await expect.poll(() => captured !== null).toBe(true);
  await page.unroute(`**/hosts/${hostId}`);
  const action = captured!;
  expect(action.headers["next-action"]).toBeTruthy();

  const other = await secondOperator(browser);
  try {
    await other.page.goto(`/hosts/${hostId}`);
    await expect(other.page.getByTestId("agent-state")).toBeVisible();
    await expect(button(other.page)).toHaveCount(0);
    await expect(other.page.getByRole("heading", { name: "Agent credential" })).toHaveCount(0);
    // The same server action, sent with the other operator's session: the form's error, no token, no 500.
    const replay = await other.context.request.post(`/hosts/${hostId}`, {
      headers: { "next-action": action.headers["next-action"]!, "content-type": action.headers["content-type"]!, accept: "text/x-component", origin: new URL(baseURL!).origin },
      data: action.body,
    });
    expect(replay.status()).toBe(200);
    const text = await replay.text();
    expect(text).toContain("Only whoever made this host, or an admin, can change or delete it.");
    expect(text).not.toMatch(/pbr_/);
  } finally {
    await other.context.close();
  }
  // The real agent was not revoked: it still answers as the host.
  await page.goto(`/hosts/${hostId}`);
  await expect(page.getByTestId("agent-state")).toHaveText("online");
  expect(agent.output()).not.toContain("credential was refused");

  // The owner re-registers: a new token, and the old agent is refused and stops.
  await button(page).click();
  await expect(page.getByTestId("registration-token")).toHaveText(/^pbr_/);
  await expect.poll(() => agent.output(), { timeout: 90_000 }).toContain("credential was refused");
});

test("deleting a host keeps another user's experiment, shown as from a removed host, and audits what it removed", async ({ page, browser, baseURL }) => {
  test.setTimeout(180_000);
  await signInAs(page, "operator");
  const { agent, hostId } = await addHostWithAgent(page, { baseURL: baseURL!, name: "e2e-removed" });
  agents.push(agent);
  const hostName = ((await (await page.request.get(`/api/hosts/${hostId}`)).json()) as { name: string }).name;

  // Another operator's experiment on it: the same dd on disk and in memory, no setup on the host.
  const other = await secondOperator(browser);
  try {
    const created = await other.context.request.post("/api/experiments", {
      headers: { origin: new URL(baseURL!).origin },
      data: {
        hostId,
        title: "disk or memory",
        probe: "dd",
        params: { sizeMiB: 8, blockSizeKiB: 1024, mode: "write", direct: false, fdatasync: true },
        arms: [
          { label: "disk", target: agent.scratch },
          { label: "memory", target: "/dev/shm" },
        ],
        repeats: { min: 10, max: 10, stop: "cv", warmup: false },
      },
    });
    expect(created.status(), await created.text()).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const experiment = async () => (await (await other.context.request.get(`/api/experiments/${id}`)).json()) as { status: string; hostRemoved: boolean; hostName: string | null; runs: { status: string }[] };
    await expect.poll(async () => (await experiment()).runs.filter((r) => r.status === "SUCCEEDED").length, { timeout: 60_000 }).toBeGreaterThan(0);

    // Its owner deletes the host from the host page.
    await page.goto(`/hosts/${hostId}`);
    await page.getByRole("button", { name: "Delete host" }).click();
    await page.getByRole("button", { name: "Yes, delete host" }).click();
    await expect(page).toHaveURL(/\/hosts$/);

    const kept = await experiment();
    expect(kept).toMatchObject({ hostRemoved: true, hostName });
    expect(["FAILED", "FINISHED"]).toContain(kept.status);
    await other.page.goto("/experiments");
    await expect(other.page.getByTestId("experiments-table").getByRole("row", { name: /disk or memory/ })).toContainText("(from a removed host)");
    await other.page.goto(`/experiments/${id}`);
    await expect(other.page.getByTestId("host-removed")).toContainText(`${hostName} (from a removed host)`);
    const csv = await (await other.context.request.get(`/api/experiments/${id}/export?format=csv`)).text();
    expect(csv).toContain(`host,host_removed\r\n${hostName},true\r\n`);
    const exported = (await (await other.context.request.get(`/api/experiments/${id}/export`)).json()) as { hostRemoved: boolean };
    expect(exported.hostRemoved).toBe(true);
    const shared = await other.context.request.post(`/api/experiments/${id}/share`, { headers: { origin: new URL(baseURL!).origin } });
    expect(shared.status()).toBe(201);
    const { slug } = (await shared.json()) as { slug: string };
    await other.page.goto(`/c/${slug}`);
    await expect(other.page.getByTestId("host-removed")).toContainText("from a removed host");
    await expect(other.page.locator("body")).not.toContainText(hostName);
  } finally {
    await other.context.close();
  }

  const admin = await apiTokenFor("admin");
  const audit = (await (await page.request.get(`/api/admin/audit?action=host.delete&target=${hostId}`, { headers: bearer(admin) })).json()) as { events: { details: Record<string, unknown> }[] };
  expect(audit.events).toHaveLength(1);
  expect(audit.events[0]!.details).toMatchObject({ name: hostName, experimentsKept: 1, agentCredentialRevoked: true, anyRunInFlight: expect.any(Boolean) });
  for (const k of ["runsKept", "runsCancelled", "runsInFlight", "experimentsEnded"]) expect(audit.events[0]!.details[k]).toEqual(expect.any(Number));
  expect(audit.events[0]!.details.runsKept as number).toBeGreaterThan(0);
  await expect.poll(() => agent.output(), { timeout: 90_000 }).toContain("credential was refused");
});

test("a revoked agent delivers only the setup report of the arm it had in flight; setup reports only for setups", async ({ request }) => {
  const operator = await apiTokenFor("operator");
  const fake = await registerFakeAgent(request, operator, "e2e-final-report");
  // The fake agent also reports that it may change vm.dirty_ratio (no host is touched: it speaks the protocol only).
  const caps = { agentVersion: "test", tools: Object.fromEntries(["iozone", "dd", "sar", "fio"].map((t) => [t, { installed: true, version: "1", path: "/usr/bin/x" }])), allowedDirs: ["/srv/pb"], tunables: { allowed: ["vm.dirty_ratio"], dropCaches: false, current: [] } };
  expect((await request.post("/api/agent/heartbeat", { headers: fake.agent, data: { runningRunIds: [], capabilities: caps } })).status()).toBe(200);

  // Item 9: a plain run's finish with a setup report is refused, naming the field.
  const plain = await request.post("/api/runs", { headers: bearer(operator), data: { hostId: fake.id, probe: "dd", params: { sizeMiB: 16, blockSizeKiB: 1024, mode: "write", target: "/srv/pb" } } });
  expect(plain.status()).toBe(201);
  const job = (await (await request.post("/api/agent/jobs/claim", { headers: fake.agent, data: { waitSec: 0 } })).json()) as { runId: string };
  const report = (name: string) => ({ lab: null, tunables: [{ name, device: null, from: "20", to: "10", restored: true }], droppedCaches: false, error: null });
  const fin = (setup: unknown, lastSeq = -1) => ({ exitCode: null, signal: null, durationMs: 0, lastSeq, error: "refused", cancelled: false, timedOut: false, interrupted: false, profile: null, setup });
  const refused = await request.post(`/api/agent/runs/${job.runId}/finish`, { headers: fake.agent, data: fin(report("vm.dirty_ratio")) });
  expect(refused.status()).toBe(400);
  expect(((await refused.json()) as { fieldErrors: Record<string, string[]> }).fieldErrors.setup).toBeTruthy();
  expect((await request.post(`/api/agent/runs/${job.runId}/finish`, { headers: fake.agent, data: fin(null) })).status()).toBe(200);
  expect(((await (await request.get(`/api/runs/${job.runId}`, { headers: bearer(operator) })).json()) as { setup?: unknown }).setup ?? null).toBeNull();

  // Item 4: an arm in flight when the host is deleted.
  const created = await request.post("/api/experiments", {
    headers: bearer(operator),
    data: { hostId: fake.id, probe: "dd", params: { sizeMiB: 16, blockSizeKiB: 1024, mode: "write", target: "/srv/pb" }, arms: [{ tunables: { "vm.dirty_ratio": 10 } }, { tunables: { "vm.dirty_ratio": 40 } }], repeats: { min: 3, max: 3, warmup: false } },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  const arm = (await (await request.post("/api/agent/jobs/claim", { headers: fake.agent, data: { waitSec: 0 } })).json()) as { runId: string; setup?: unknown };
  expect(arm.setup).toBeTruthy();
  expect(await (await request.delete(`/api/hosts/${fake.id}`, { headers: bearer(operator) })).json()).toMatchObject({ runsInFlight: 1, experimentsKept: 1, experimentsEnded: 1 });

  // Revoked: no claims, no output, no report about anything the arm did not set, no report on another run.
  expect((await request.post("/api/agent/jobs/claim", { headers: fake.agent, data: { waitSec: 0 } })).status()).toBe(401);
  expect((await request.post(`/api/agent/runs/${arm.runId}/chunks`, { headers: fake.agent, data: { chunks: [{ seq: 0, data: "x" }] } })).status()).toBe(401);
  expect((await request.post(`/api/agent/runs/${arm.runId}/finish`, { headers: fake.agent, data: fin(null) })).status()).toBe(401);
  expect((await request.post(`/api/agent/runs/${arm.runId}/finish`, { headers: fake.agent, data: fin(report("vm.swappiness")) })).status()).toBe(400);
  expect((await request.post(`/api/agent/runs/${job.runId}/finish`, { headers: fake.agent, data: fin(report("vm.dirty_ratio")) })).status()).toBe(401);
  // The arm's own report is recorded, once, and the experiment says the host was put back.
  const ok = await request.post(`/api/agent/runs/${arm.runId}/finish`, { headers: fake.agent, data: fin(report("vm.dirty_ratio"), 3) });
  expect(ok.status(), await ok.text()).toBe(200);
  expect((await request.post(`/api/agent/runs/${arm.runId}/finish`, { headers: fake.agent, data: fin(report("vm.dirty_ratio")) })).status()).toBe(401);
  const exp = (await (await request.get(`/api/experiments/${id}`, { headers: bearer(operator) })).json()) as { hostRemoved: boolean; reverted: boolean | null; runs: { id: string; status: string; setup: { tunables: { restored: boolean }[] } | null }[] };
  expect(exp).toMatchObject({ hostRemoved: true, reverted: true });
  expect(exp.runs.find((r) => r.id === arm.runId)).toMatchObject({ status: "CANCELLED", setup: { tunables: [{ restored: true }] } });
});
