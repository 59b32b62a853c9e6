import { type APIRequestContext } from "@playwright/test";
import { expect, test } from "../fixtures";
import { apiTokenFor, bearer } from "../helpers";
import { removeAgent, startAgent, type AgentHandle } from "./agent-process";

// The agent's two transports against the real server (scripts/serve.ts with the gateway): the
// socket an agent of today opens, and HTTP as an older agent (or --transport http) speaks it.

const agents: AgentHandle[] = [];
test.afterAll(async () => {
  for (const a of agents) await removeAgent(a);
});

/** A host added through the API and a real agent started with its one-time token. */
async function hostWithAgent(request: APIRequestContext, baseURL: string, token: string, extraArgs: string[] = []) {
  const created = await request.post("/api/hosts", { headers: bearer(token), data: { name: `transport-${Date.now()}-${Math.random().toString(36).slice(2, 6)}` } });
  expect(created.status()).toBe(201);
  const { id, registrationToken } = (await created.json()) as { id: string; registrationToken: string };
  const agent = startAgent({ server: baseURL, token: registrationToken, allow: ["/dev/shm"], extraArgs });
  agents.push(agent);
  await expect.poll(() => agent.output(), { timeout: 20_000 }).toContain("registered as host");
  return { hostId: id, agent };
}

async function runDd(request: APIRequestContext, token: string, hostId: string) {
  const res = await request.post("/api/runs", { headers: bearer(token), data: { hostId, probe: "dd", params: { target: "/dev/shm", sizeMiB: 8 } } });
  expect(res.status()).toBe(201);
  const { id } = (await res.json()) as { id: string };
  await expect
    .poll(async () => ((await (await request.get(`/api/runs/${id}`, { headers: bearer(token) })).json()) as { status: string }).status, { timeout: 30_000 })
    .toBe("SUCCEEDED");
  const run = (await (await request.get(`/api/runs/${id}`, { headers: bearer(token) })).json()) as { createdAt: string; startedAt: string; result: unknown };
  const log = await (await request.get(`/api/runs/${id}/log`, { headers: bearer(token) })).text();
  return { run, log };
}

test("an agent of today talks over the agent socket: its job is pushed the moment it is queued, and dd runs end to end", async ({ request, baseURL }) => {
  const token = await apiTokenFor("operator");
  const { hostId, agent } = await hostWithAgent(request, baseURL!, token);
  await expect.poll(() => agent.output(), { timeout: 20_000 }).toContain("over the agent socket");
  // Idle long enough that an HTTP agent would be inside a long-poll: the socket's claim waits 15 min.
  await new Promise((r) => setTimeout(r, 1500));
  const { run, log } = await runDd(request, token, hostId);
  expect(Date.parse(run.startedAt) - Date.parse(run.createdAt)).toBeLessThan(1000);
  expect(log).toMatch(/copied/);
  expect(run.result).not.toBeNull();
  expect(agent.output()).not.toContain("over HTTP");
});

test("an agent on the HTTP protocol (as before the socket) still runs dd end to end", async ({ request, baseURL }) => {
  const token = await apiTokenFor("operator");
  const { hostId, agent } = await hostWithAgent(request, baseURL!, token, ["--transport", "http"]);
  const { log } = await runDd(request, token, hostId);
  expect(log).toMatch(/copied/);
  expect(agent.output()).not.toContain("over the agent socket");
});

test("deleting the host closes its agent's socket within a second, and the agent stops", async ({ request, baseURL }) => {
  const token = await apiTokenFor("operator");
  const { hostId, agent } = await hostWithAgent(request, baseURL!, token);
  await expect.poll(() => agent.output(), { timeout: 20_000 }).toContain("over the agent socket");
  await new Promise((r) => setTimeout(r, 500));
  const exited = new Promise<number>((resolve) => agent.child.once("exit", () => resolve(Date.now())));
  const before = Date.now();
  const deleted = await request.delete(`/api/hosts/${hostId}`, { headers: bearer(token) });
  expect(deleted.status()).toBe(200);
  const answered = Date.now();
  const at = await exited;
  // The socket is closed by the server once the deletion is committed (the answer): within a
  // second of it, and the agent, told its credential is gone, exits.
  expect(at - answered, `deleted in ${answered - before} ms`).toBeLessThan(1000);
  expect(agent.output()).toMatch(/credential was refused/);
  expect(agent.child.exitCode).toBe(3);
});
