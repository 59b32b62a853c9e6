// Attacks on the agent protocol, the import and the query boundaries, against the real server
// (`next start`) and a real PostgreSQL: run state enforced, bounded parsing off the request
// thread, launches on unreported hosts, and 400s instead of 500s.
import { type APIRequestContext } from "@playwright/test";
import { expect, test } from "../fixtures";
import { longIozoneOutput } from "../../probes/iozone/huge-output";
import { wideSarOutput } from "../../probes/sar/huge-output";
import { apiTokenFor, bearer, registerFakeAgent } from "../helpers";

const DD_OUTPUT = "4+0 records in\n4+0 records out\n4194304 bytes (4.2 MB, 4.0 MiB) copied, 0.00529 s, 793 MB/s\n";

const registeredHost = (request: APIRequestContext, operator: string) => registerFakeAgent(request, operator, "boundaries");

async function launch(request: APIRequestContext, operator: string, hostId: string, probe = "dd", params: object = { target: "/srv/pb", sizeMiB: 4 }) {
  const r = await request.post("/api/runs", { headers: bearer(operator), data: { hostId, probe, params } });
  expect(r.status()).toBe(201);
  return ((await r.json()) as { id: string }).id;
}

const finishBody = (lastSeq: number) => ({ exitCode: 0, signal: null, durationMs: 10, lastSeq, error: null, cancelled: false, timedOut: false, interrupted: false, profile: null });

async function status(request: APIRequestContext, token: string, runId: string) {
  return ((await (await request.get(`/api/runs/${runId}`, { headers: bearer(token) })).json()) as { status: string }).status;
}

/** Polls /api/health while `work` runs; returns the slowest answer in ms. */
async function slowestHealthDuring(request: APIRequestContext, work: Promise<unknown>): Promise<number> {
  let done = false;
  void work.finally(() => (done = true));
  let slowest = 0;
  let probes = 0;
  while (!done || probes < 3) {
    const t = Date.now();
    const r = await request.get("/api/health");
    expect(r.status()).toBe(200);
    slowest = Math.max(slowest, Date.now() - t);
    probes++;
    await new Promise((res) => setTimeout(res, 100));
  }
  return slowest;
}

test("chunks and a finish for a run no agent claimed are refused and leave it queued", async ({ request }) => {
  const operator = await apiTokenFor("operator");
  const host = await registeredHost(request, operator);
  const runId = await launch(request, operator, host.id);
  const chunk = await request.post(`/api/agent/runs/${runId}/chunks`, { headers: host.agent, data: { chunks: [{ seq: 0, data: DD_OUTPUT }] } });
  expect(chunk.status()).toBe(409);
  expect(((await chunk.json()) as { error: string }).error).toMatch(/never claimed/);
  const fin = await request.post(`/api/agent/runs/${runId}/finish`, { headers: host.agent, data: finishBody(-1) });
  expect(fin.status()).toBe(409);
  expect(await status(request, operator, runId)).toBe("QUEUED");
  expect(await (await request.get(`/api/runs/${runId}/log`, { headers: bearer(operator) })).text()).toBe("");
});

test("a run finishes once; chunks after the finish are refused and not appended", async ({ request }) => {
  const operator = await apiTokenFor("operator");
  const host = await registeredHost(request, operator);
  const runId = await launch(request, operator, host.id);
  const claim = await request.post("/api/agent/jobs/claim", { headers: host.agent, data: { waitSec: 0 } });
  expect(((await claim.json()) as { runId: string }).runId).toBe(runId);
  expect((await request.post(`/api/agent/runs/${runId}/chunks`, { headers: host.agent, data: { chunks: [{ seq: 0, data: DD_OUTPUT }] } })).status()).toBe(200);
  const fin = await request.post(`/api/agent/runs/${runId}/finish`, { headers: host.agent, data: finishBody(0) });
  expect(fin.status()).toBe(200);
  expect(await fin.json()).toEqual({ status: "SUCCEEDED" });

  const late = await request.post(`/api/agent/runs/${runId}/chunks`, { headers: host.agent, data: { chunks: [{ seq: 1, data: "forged line\n" }] } });
  expect(late.status()).toBe(409);
  expect(((await late.json()) as { error: string }).error).toMatch(/already finished \(succeeded\)/);
  expect(await (await request.get(`/api/runs/${runId}/log`, { headers: bearer(operator) })).text()).toBe(DD_OUTPUT);

  // A second finish (an agent that lost the first answer) changes nothing.
  const again = await request.post(`/api/agent/runs/${runId}/finish`, { headers: host.agent, data: { ...finishBody(-1), exitCode: 1, error: "forged" } });
  expect(await again.json()).toEqual({ status: "SUCCEEDED" });
  expect(await status(request, operator, runId)).toBe("SUCCEEDED");
});

test("a launch on a host whose agent never reported its directories is refused, not queued", async ({ request }) => {
  const operator = await apiTokenFor("operator");
  const created = await request.post("/api/hosts", { headers: bearer(operator), data: { name: `silent-${Date.now()}` } });
  const { id } = (await created.json()) as { id: string };
  const r = await request.post("/api/runs", { headers: bearer(operator), data: { hostId: id, probe: "dd", params: { target: "/etc", sizeMiB: 1 } } });
  expect(r.status()).toBe(400);
  expect(((await r.json()) as { error: string }).error).toMatch(/has not reported its allowed directories yet/);
  const list = await request.get(`/api/runs?hostId=${id}`, { headers: bearer(operator) });
  expect(((await list.json()) as { total: number }).total).toBe(0);
});

test("huge imports answer 413 quickly while health stays responsive", async ({ request }) => {
  test.setTimeout(120_000);
  const operator = await apiTokenFor("operator");
  const cases = [
    { probe: "sar", output: wideSarOutput(4000, 120), statuses: [413], message: /more than 2000 columns/ },
    // 413 from the measurement cap; 422 if the parse ran out of time first on a loaded machine
    { probe: "iozone", output: longIozoneOutput(180_000), statuses: [413, 422], message: /720,000 measurements; at most 500,000|longer than 15 s/ },
  ];
  for (const c of cases) {
    const started = Date.now();
    const importing = request.post("/api/runs/import", { headers: bearer(operator), data: { probe: c.probe, output: c.output, hostLabel: "attack" } });
    const slowest = await slowestHealthDuring(request, importing);
    const r = await importing;
    const { error } = (await r.json()) as { error: string };
    expect(c.statuses, `${c.probe}: ${r.status()} ${error}`).toContain(r.status());
    expect(error).toMatch(c.message);
    expect(Date.now() - started, c.probe).toBeLessThan(30_000);
    expect(slowest, `slowest /api/health during the ${c.probe} import`).toBeLessThan(2000);
  }
  // The worker still parses ordinary output afterwards.
  const ok = await request.post("/api/runs/import", { headers: bearer(operator), data: { probe: "dd", output: DD_OUTPUT, hostLabel: "fine" } });
  expect(ok.status()).toBe(201);
});

test("a finish whose log is beyond the caps fails the run with the reason (413), health stays responsive", async ({ request }) => {
  test.setTimeout(120_000);
  const operator = await apiTokenFor("operator");
  const host = await registeredHost(request, operator);
  const runId = await launch(request, operator, host.id, "iozone", { target: "/srv/pb", fileSizeMiB: 1, minRecordKiB: 4, maxRecordKiB: 64 });
  await request.post("/api/agent/jobs/claim", { headers: host.agent, data: { waitSec: 0 } });
  const log = longIozoneOutput(180_000);
  const chunks: { seq: number; data: string }[] = [];
  for (let i = 0; i * 65536 < log.length; i++) chunks.push({ seq: i, data: log.slice(i * 65536, (i + 1) * 65536) });
  for (let i = 0; i < chunks.length; i += 64) {
    const r = await request.post(`/api/agent/runs/${runId}/chunks`, { headers: host.agent, data: { chunks: chunks.slice(i, i + 64) } });
    expect(r.status()).toBe(200);
  }
  const finishing = request.post(`/api/agent/runs/${runId}/finish`, { headers: host.agent, data: finishBody(chunks.length - 1) });
  const slowest = await slowestHealthDuring(request, finishing);
  const fin = await finishing;
  const { error } = (await fin.json()) as { error: string };
  // 413 from the measurement cap; 422 if the parse ran out of time first on a loaded machine
  expect([413, 422], `${fin.status()} ${error}`).toContain(fin.status());
  expect(error).toMatch(/too large to keep as a result: .*720,000 measurements|could not be parsed: parsing took longer than 15 s/);
  expect(slowest).toBeLessThan(2000);
  const run = (await (await request.get(`/api/runs/${runId}`, { headers: bearer(operator) })).json()) as { status: string; error: string };
  expect(run.status).toBe("FAILED");
  expect(run.error).toMatch(/720,000 measurements|longer than 15 s/);
});

test("malformed queries, paths and bodies are 400 (or 404), never 500", async ({ request }) => {
  const operator = await apiTokenFor("operator");
  const host = await registeredHost(request, operator);
  const gets = [
    "/api/runs?host=%00",
    "/api/runs?fsType=%00",
    "/api/runs?to=99999-01-01",
    "/api/runs?from=-271821-04-20",
    "/api/runs/%ff%fe",
    "/api/runs/%ff%fe/log",
    "/api/runs/%ff%fe/export",
    "/api/runs/%ff%fe/events",
  ];
  for (const url of gets) {
    const r = await request.get(url, { headers: bearer(operator) });
    expect([400, 404], url).toContain(r.status());
  }
  const cancel = await request.post("/api/runs/%ff%fe/cancel", { headers: bearer(operator) });
  expect([400, 404]).toContain(cancel.status());
  // The agent's routes with a run id answer the same (proxy.ts must keep covering them).
  for (const url of ["/api/agent/runs/%ff%fe/chunks", "/api/agent/runs/%ff%fe/finish"]) {
    const r = await request.post(url, { headers: host.agent, data: { chunks: [] } });
    expect(r.status(), url).toBe(400);
    expect((await r.json()).error, url).toMatch(/malformed %-escapes/);
  }

  const nul = await request.post("/api/runs/import", { headers: bearer(operator), data: { probe: "dd", output: DD_OUTPUT, hostLabel: "a\u0000b" } });
  expect(nul.status()).toBe(400);

  const runId = await launch(request, operator, host.id);
  await request.post("/api/agent/jobs/claim", { headers: host.agent, data: { waitSec: 0 } });
  const huge = await request.post(`/api/agent/runs/${runId}/finish`, { headers: host.agent, data: finishBody(1e15) });
  expect(huge.status()).toBe(400);

  let deep = "{}";
  for (let i = 0; i < 100_000; i++) deep = `{"a":${deep}}`;
  const hb = await request.post("/api/agent/heartbeat", {
    headers: { ...host.agent, "content-type": "application/json" },
    data: `{"runningRunIds":[],"profile":${deep}}`,
  });
  expect(hb.status()).toBe(400);
  // The server is still well.
  expect((await request.get("/api/health")).status()).toBe(200);
});
