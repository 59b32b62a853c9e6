import { type APIRequestContext, type Page } from "@playwright/test";
import { expect, test } from "../fixtures";
import { adminCli, apiTokenFor, bearer, createUser, registerFakeAgent, signIn } from "../helpers";

// Each test makes users and tokens with the admin CLI (a process each): slow on a busy machine.
test.describe.configure({ timeout: 180_000 });

/** An operator signed in in this page, with an API token of the same user (so they own what the token makes). */
async function operatorWithToken(page: Page) {
  const user = await createUser("operator");
  await signIn(page, user.email, user.password);
  const r = await adminCli(["token", "create", "--email", user.email, "--name", "e2e"]);
  expect(r.code).toBe(0);
  return r.stdout.trim();
}

async function importDd(request: APIRequestContext, token: string, hostLabel: string): Promise<string> {
  const r = await request.post("/api/runs/import", {
    headers: bearer(token),
    data: { probe: "dd", output: "16777216 bytes (17 MB, 16 MiB) copied, 0.05 s, 335 MB/s\n", hostLabel },
  });
  expect(r.status()).toBe(201);
  return ((await r.json()) as { id: string }).id;
}

test("tags and a note on the run page, shown in the runs list and filtered by tag", async ({ page, request }) => {
  const token = await operatorWithToken(page);
  const label = `tagged-${Date.now()}`;
  const a = await importDd(request, token, label);
  const b = await importDd(request, token, label);
  await page.goto(`/runs/${a}`);
  await page.getByText("Tags and note", { exact: true }).click();
  await page.getByLabel(/^Tags/).fill("Baseline, nvme");
  await page.getByLabel("Note").fill("after the firmware update");
  await page.getByRole("button", { name: "Save tags and note" }).click();
  await expect(page.getByTestId("run-tags")).toContainText("baseline");
  await expect(page.getByTestId("run-tags")).toContainText("nvme");
  await expect(page.getByTestId("run-notes")).toHaveText("after the firmware update");
  // An invalid tag is refused with the rule.
  await page.getByLabel(/^Tags/).fill("no/slash");
  await page.getByRole("button", { name: "Save tags and note" }).click();
  await expect(page.getByTestId("run-annotations").getByRole("alert")).toContainText("lower-case letters");

  await page.goto(`/runs?host=${label}`);
  await page.getByLabel("Tag", { exact: true }).fill("baseline");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/tag=baseline/);
  const table = page.getByTestId("runs-table");
  await expect(table.locator(`[data-run-id="${a}"]`)).toBeVisible();
  await expect(table.locator(`[data-run-id="${b}"]`)).toHaveCount(0);
  await expect(table.getByTestId("run-tag").first()).toHaveText("baseline");
  await expect(table.getByTestId("run-note")).toHaveText("after the firmware update");
  // The result at a glance: the imported dd run's throughput in its display unit.
  await expect(table.getByTestId("run-result")).toHaveText(/^[\d,.]+ (MiB|GiB)\/s$/);
  const api = (await (await request.get("/api/runs?tag=baseline&host=" + label, { headers: bearer(token) })).json()) as { runs: { id: string }[] };
  expect(api.runs.map((r) => r.id)).toEqual([a]);
});

test("deleting a run asks first, is the owner's or an admin's, and is audited", async ({ page, request }) => {
  const token = await operatorWithToken(page);
  const mine = await importDd(request, token, `del-${Date.now()}`);
  const theirs = await importDd(request, await apiTokenFor("operator"), `other-${Date.now()}`);
  await page.goto(`/runs/${theirs}`);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByRole("button", { name: "Delete run" })).toHaveCount(0);
  await expect(page.getByTestId("run-annotations")).toHaveCount(0);
  expect((await request.delete(`/api/runs/${theirs}`, { headers: bearer(token) })).status()).toBe(403);

  await page.goto(`/runs/${mine}`);
  await page.getByRole("button", { name: "Delete run" }).click();
  await page.getByRole("button", { name: "Keep it" }).click();
  expect((await request.get(`/api/runs/${mine}`, { headers: bearer(token) })).status()).toBe(200);
  await page.getByRole("button", { name: "Delete run" }).click();
  await page.getByRole("button", { name: "Yes, delete run" }).click();
  await expect(page).toHaveURL(/\/runs$/);
  expect((await request.get(`/api/runs/${mine}`, { headers: bearer(token) })).status()).toBe(404);
  const audit = (await (await request.get("/api/admin/audit?action=run.delete", { headers: bearer(await apiTokenFor("admin")) })).json()) as { events: { targetId: string }[] };
  expect(audit.events.map((e) => e.targetId)).toContain(mine);
});

test("deleting a host keeps its runs, marked as from a removed host, and shuts its agent out", async ({ page, request }) => {
  const token = await operatorWithToken(page);
  const host = await registerFakeAgent(request, token, "doomed");
  const launched = await request.post("/api/runs", { headers: bearer(token), data: { hostId: host.id, probe: "dd", params: { target: "/srv/pb", sizeMiB: 8, mode: "write" } } });
  expect(launched.status()).toBe(201);
  const runId = ((await launched.json()) as { id: string }).id;
  const name = ((await (await request.get(`/api/hosts/${host.id}`, { headers: bearer(token) })).json()) as { name: string }).name;

  await page.goto(`/hosts/${host.id}`);
  await page.getByRole("button", { name: "Delete host" }).click();
  await page.getByRole("button", { name: "Yes, delete host" }).click();
  await expect(page).toHaveURL(/\/hosts$/);
  expect((await request.get(`/api/hosts/${host.id}`, { headers: bearer(token) })).status()).toBe(404);
  expect((await request.post("/api/agent/heartbeat", { headers: host.agent, data: { runningRunIds: [] } })).status()).toBe(401);

  await page.goto(`/runs/${runId}`);
  await expect(page.getByRole("heading", { level: 1 })).toContainText(name);
  await expect(page.getByTestId("host-removed")).toContainText("from a removed host");
  await expect(page.getByTestId("run-status")).toHaveText("cancelled");
  const run = (await (await request.get(`/api/runs/${runId}`, { headers: bearer(token) })).json()) as { hostRemoved: boolean; hostName: string };
  expect(run).toMatchObject({ hostRemoved: true, hostName: name });
  await page.goto(`/runs?host=${name}`);
  await expect(page.getByTestId("runs-table")).toContainText("(removed host)");
});

test("deleting a share link removes it from the list; the link then answers 404", async ({ page, request }) => {
  const token = await operatorWithToken(page);
  const id = await importDd(request, token, `share-${Date.now()}`);
  const title = `to delete ${Date.now()}`;
  const shared = await request.post("/api/comparisons", { headers: bearer(token), data: { runIds: [id], title } });
  const { slug } = (await shared.json()) as { slug: string };
  await page.goto("/settings/shares");
  const row = page.getByTestId("shares-table").getByRole("row").filter({ hasText: title });
  await row.getByRole("button", { name: "Delete", exact: true }).click();
  await row.getByRole("button", { name: "Yes, delete" }).click();
  await expect(page.getByTestId("shares-table").getByRole("row").filter({ hasText: title })).toHaveCount(0);
  expect((await request.get(`/api/comparisons/${slug}`)).status()).toBe(404);
});

test("the API document lists every operation and /api-docs shows them readably", async ({ page, request }) => {
  const doc = (await (await request.get("/api/openapi.json")).json()) as { openapi: string; paths: Record<string, Record<string, unknown>> };
  expect(doc.openapi).toBe("3.1.0");
  expect(Object.keys(doc.paths["/api/runs/{id}"]!).sort()).toEqual(["delete", "get", "patch"]);
  expect(doc.paths["/api/agent/runs/{id}/chunks"]).toBeTruthy();
  await page.goto("/api-docs");
  await expect(page.getByRole("heading", { name: "HTTP API" })).toBeVisible();
  const ops = await page.getByTestId("api-operation").count();
  expect(ops).toBe(Object.values(doc.paths).reduce((n, p) => n + Object.keys(p).length, 0));
  await expect(page.getByTestId("api-operation").filter({ hasText: "/api/runs/{id}" }).filter({ hasText: "PATCH" })).toContainText("its launcher or an admin");
});
