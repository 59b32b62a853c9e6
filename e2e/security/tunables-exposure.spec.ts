// Issue 27, items 5, 7 and 8, against the real server (`next start`) and PostgreSQL: the public
// /tunables index shows no host to an anonymous visitor (HTML, RSC payload, picker), signed-in users
// see them (a real agent's host too); an experiment arm's tunables are catalogue names with values its validators take.
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type APIRequestContext } from "@playwright/test";
import { expect, test } from "../fixtures";
import { apiTokenFor, bearer, signInAs } from "../helpers";
import { startAgent } from "../agent/agent-process";

const fakeTool = { installed: true, version: "1", path: "/usr/bin/x" };

/** A host registered by a test agent whose profile names a distinctive target directory, and which allows the disk tunables. */
async function registerHost(request: APIRequestContext, operator: string) {
  const tag = randomUUID().slice(0, 8);
  const name = `inventory-secret-${tag}`;
  const targetPath = `/srv/secret-project-alpha-${tag}/db01`;
  const created = await request.post("/api/hosts", { headers: bearer(operator), data: { name } });
  expect(created.status()).toBe(201);
  const { id, registrationToken } = (await created.json()) as { id: string; registrationToken: string };
  const reg = await request.post("/api/agent/register", {
    data: {
      registrationToken,
      profile: {
        sysctls: { "vm.zone_reclaim_mode": "1", "vm.dirty_ratio": "20" },
        targets: [{ path: targetPath, fsType: "ext4", mountOptions: ["rw", "noatime"], medium: "ssd", freeBytes: 10 * 2 ** 30 }],
      },
      capabilities: {
        agentVersion: "test",
        tools: { dd: fakeTool, fio: fakeTool, iozone: fakeTool, sar: fakeTool },
        allowedDirs: [targetPath],
        tunables: { allowed: ["vm.dirty_ratio", "vm.drop_caches", "queue/scheduler", "queue/read_ahead_kb", "queue/nr_requests"], dropCaches: true, current: [] },
      },
    },
  });
  expect(reg.status()).toBe(201);
  return { id, name, targetPath };
}

test("an anonymous visitor of /tunables gets the index and nothing of any host; a signed-in viewer sees the host", async ({ page, request }) => {
  const operator = await apiTokenFor("operator");
  const host = await registerHost(request, operator);
  const secrets = [host.name, host.id, host.targetPath, "secret-project-alpha"];

  // The HTML (with the RSC payload inlined in it), the RSC payload alone, and a picker query naming the host.
  for (const [url, headers] of [
    ["/tunables", {}],
    [`/tunables?hosts=${host.id}`, {}],
    [`/tunables?hosts=${host.id}`, { RSC: "1" }],
  ] as const) {
    const res = await request.get(url, { headers });
    expect(res.status(), url).toBe(200);
    const text = await res.text();
    expect(text, url).toContain("vm.zone_reclaim_mode");
    // A URL that names the host's id is echoed back in the payload (the page's own address): its id is the asker's, not a leak.
    for (const s of secrets.filter((x) => !url.includes(x))) expect(text.includes(s), `${url} ${JSON.stringify(headers)} contains ${s}`).toBe(false);
  }

  await page.goto(`/tunables?hosts=${host.id}`);
  await expect(page.getByRole("heading", { level: 1, name: "Tunables" })).toBeVisible();
  await expect(page.getByTestId("no-hosts")).toContainText("Sign in to see your hosts' current values");
  await expect(page.getByTestId("host-picker")).toHaveCount(0);
  expect((await page.locator("table thead th").allTextContents()).filter((h) => h.startsWith("Host "))).toEqual([]);
  expect(await page.content()).not.toContain(host.targetPath);

  await signInAs(page, "viewer");
  await page.goto(`/tunables?hosts=${host.id}`);
  const headers = await page.locator("table thead th").allTextContents();
  const column = headers.indexOf(`Host ${host.name}`);
  expect(column).toBeGreaterThan(0);
  await expect(page.locator(`tr#noatime > :is(th, td)`).nth(column)).toContainText(`yes on ${host.targetPath}`);
});

/** POSTs an experiment whose second arm's tunables are the raw JSON text given (so `__proto__` stays an own key). */
async function postArm(request: APIRequestContext, operator: string, host: { id: string; targetPath: string }, tunables: string) {
  const body = `{"hostId":"${host.id}","probe":"dd","params":{"target":"${host.targetPath}","sizeMiB":4,"blockSizeKiB":1024,"mode":"write","direct":true,"fdatasync":true},"arms":[{"label":"base","tunables":{}},{"tunables":${tunables}}],"repeats":{"min":3,"max":3}}`;
  const res = await request.post("/api/experiments", { headers: { ...bearer(operator), "content-type": "application/json" }, data: body });
  return { status: res.status(), json: (await res.json()) as { error?: string; fieldErrors?: Record<string, string[]> } };
}

test("an experiment arm's tunables are refused with 400 naming the field unless the catalogue takes them", async ({ request }) => {
  const operator = await apiTokenFor("operator");
  const host = await registerHost(request, operator);
  const cases: Array<[string, string, RegExp]> = [
    [`{"__proto__":"1"}`, "arms.1.tunables.__proto__", /"__proto__" is not a field of this API/],
    [`{"kernel.core_pattern":"|/bin/sh"}`, "arms.1.tunables", /"kernel\.core_pattern" is not in Probebook's tunable catalogue/],
    [`{"vm.drop_caches":"3"}`, "arms.1.tunables.vm.drop_caches", /vm\.drop_caches is an action, not a setting/],
    [`{"queue/scheduler":"none; reboot"}`, "arms.1.tunables.queue/scheduler", /must be one of none, mq-deadline, kyber, bfq.*got "none; reboot"/],
    [`{"queue/read_ahead_kb":"99999999"}`, "arms.1.tunables.queue/read_ahead_kb", /must be from 0 to 65536, got 99999999/],
    [`{"queue/nr_requests":"2"}`, "arms.1.tunables.queue/nr_requests", /must be from 4 to 65536, got 2/],
    [`{"queue/nr_requests":"65537"}`, "arms.1.tunables.queue/nr_requests", /must be from 4 to 65536, got 65537/],
  ];
  for (const [tunables, field, message] of cases) {
    const r = await postArm(request, operator, host, tunables);
    expect(r.status, tunables).toBe(400);
    expect(r.json.fieldErrors?.[field]?.[0], `${tunables}: ${JSON.stringify(r.json)}`).toMatch(message);
  }
  const list = await request.get(`/api/experiments?hostId=${host.id}`, { headers: bearer(operator) });
  expect(((await list.json()) as { experiments: unknown[] }).experiments).toEqual([]);

  // The same host takes an arm the catalogue allows.
  const ok = await postArm(request, operator, host, `{"queue/scheduler":"mq-deadline"}`);
  expect(ok.status, JSON.stringify(ok.json)).toBe(201);
});

test("a real agent's host and directory stay off the anonymous /tunables page", async ({ page, request, baseURL }) => {
  const operator = await apiTokenFor("operator");
  const tag = randomUUID().slice(0, 8);
  const name = `inventory-real-${tag}`;
  const created = await request.post("/api/hosts", { headers: bearer(operator), data: { name } });
  expect(created.status()).toBe(201);
  const { id, registrationToken } = (await created.json()) as { id: string; registrationToken: string };
  const base = fs.mkdtempSync(path.join(os.tmpdir(), "pb-"));
  const secretDir = path.join(base, `secret-inventory-${tag}`);
  fs.mkdirSync(secretDir);
  const agent = startAgent({ server: baseURL!, token: registrationToken, allow: [secretDir] });
  try {
    await expect.poll(() => agent.output(), { timeout: 20_000 }).toContain("registered as host");
    for (const [url, headers] of [["/tunables", {}], ["/tunables", { RSC: "1" }]] as const) {
      const text = await (await request.get(url, { headers })).text();
      for (const secret of [name, id, secretDir, `secret-inventory-${tag}`]) expect(text.includes(secret), `${url} ${JSON.stringify(headers)} contains ${secret}`).toBe(false);
    }
    // The same page, signed in, names the host: the agent's profile did reach it.
    await signInAs(page, "viewer");
    await page.goto(`/tunables?hosts=${id}`);
    expect(await page.locator("table thead th").allTextContents()).toContain(`Host ${name}`);
  } finally {
    await agent.stop();
    for (const dir of [base, agent.stateDir, agent.scratch]) fs.rmSync(dir, { recursive: true, force: true });
  }
});
