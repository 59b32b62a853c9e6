import { type APIRequestContext } from "@playwright/test";
import { expect, test } from "../fixtures";
import { apiTokenFor, bearer, createUser, registerFakeAgent, signInViaForm } from "../helpers";

/** A host whose "agent" (this test, through the real agent API) allows only /srv/pb. */
const registeredHost = (request: APIRequestContext, operator: string) => registerFakeAgent(request, operator, "abuse");

async function runCount(request: APIRequestContext, token: string, hostId: string): Promise<number> {
  const r = await request.get(`/api/runs?hostId=${hostId}`, { headers: bearer(token) });
  return ((await r.json()) as { total: number }).total;
}

test("injection and abuse attempts are refused and nothing is queued", async ({ request }) => {
  const operator = await apiTokenFor("operator");
  const host = await registeredHost(request, operator);
  const attempts: { body: unknown; status: number }[] = [
    { body: { hostId: host.id, probe: "dd", params: { target: "/srv/pb; rm -rf /", sizeMiB: 1 } }, status: 400 },
    { body: { hostId: host.id, probe: "dd", params: { target: "/srv/pb/$(reboot)", sizeMiB: 1 } }, status: 400 },
    { body: { hostId: host.id, probe: "dd", params: { target: "/srv/pb/`reboot`", sizeMiB: 1 } }, status: 400 },
    { body: { hostId: host.id, probe: "dd", params: { target: "/srv/pb/../../etc", sizeMiB: 1 } }, status: 400 },
    { body: { hostId: host.id, probe: "dd", params: { target: "/etc", sizeMiB: 1 } }, status: 400 },
    { body: { hostId: host.id, probe: "dd", params: { target: "/srv/pb\u0000/etc", sizeMiB: 1 } }, status: 400 },
    { body: { hostId: host.id, probe: "dd", params: { target: "/srv/pb", sizeMiB: "1; rm -rf /" } }, status: 400 },
    { body: { hostId: host.id, probe: "dd", params: { target: "/srv/pb", sizeMiB: 1e12 } }, status: 400 },
    { body: { hostId: host.id, probe: "dd", params: { target: "/srv/pb", sizeMiB: 20 * 1024 } }, status: 400 }, // more than the 10 GiB free
    { body: { hostId: host.id, probe: "sar", params: { target: "/srv/pb", interval: 1, count: 10_000_000 } }, status: 400 },
    { body: { hostId: host.id, probe: "bash", params: { target: "/srv/pb" } }, status: 400 },
    { body: { hostId: host.id, probe: "dd", params: { target: "/srv/pb", sizeMiB: 1 }, repeats: 1000 }, status: 400 },
    { body: { hostId: "00000000-0000-4000-8000-000000000000", probe: "dd", params: { target: "/srv/pb", sizeMiB: 1 } }, status: 404 },
    { body: "not json", status: 400 },
  ];
  for (const a of attempts) {
    const r = await request.post("/api/runs", { headers: { ...bearer(operator), "content-type": "application/json" }, data: typeof a.body === "string" ? a.body : JSON.stringify(a.body) });
    expect(r.status(), JSON.stringify(a.body)).toBe(a.status);
    const body = JSON.stringify(await r.json());
    expect(body).not.toMatch(/at \w+ \(|prisma|SELECT |stack/i);
  }
  expect(await runCount(request, operator, host.id)).toBe(0);
  // A valid request still works, so the refusals above were about their content.
  const ok = await request.post("/api/runs", { headers: bearer(operator), data: { hostId: host.id, probe: "dd", params: { target: "/srv/pb", sizeMiB: 1 } } });
  expect(ok.status()).toBe(201);
});

test("an agent can fetch and write only its own host's runs", async ({ request }) => {
  const operator = await apiTokenFor("operator");
  const a = await registeredHost(request, operator);
  const b = await registeredHost(request, operator);
  const created = await request.post("/api/runs", { headers: bearer(operator), data: { hostId: a.id, probe: "sar", params: { target: "/srv/pb", count: 3 } } });
  const { id } = (await created.json()) as { id: string };
  const claimB = await request.post("/api/agent/jobs/claim", { headers: bearer(b.credential), data: { waitSec: 0 } });
  expect(claimB.status()).toBe(204);
  const chunks = await request.post(`/api/agent/runs/${id}/chunks`, { headers: bearer(b.credential), data: { chunks: [{ seq: 0, data: "forged" }] } });
  expect(chunks.status()).toBe(403);
  const finish = await request.post(`/api/agent/runs/${id}/finish`, { headers: bearer(b.credential), data: { exitCode: 0, durationMs: 1, lastSeq: -1 } });
  expect(finish.status()).toBe(403);
  const log = await request.get(`/api/runs/${id}/log`, { headers: bearer(operator) });
  expect(await log.text()).toBe("");
  const claimA = await request.post("/api/agent/jobs/claim", { headers: bearer(a.credential), data: { waitSec: 0 } });
  expect(((await claimA.json()) as { runId: string }).runId).toBe(id);
  // Bodies over the limit are refused before they are read whole.
  const huge = await request.post("/api/agent/heartbeat", {
    headers: { ...bearer(a.credential), "content-type": "application/json" },
    data: JSON.stringify({ runningRunIds: [], profile: { junk: "x".repeat(3 * 1024 * 1024) } }),
  });
  expect(huge.status()).toBe(413);
});

test("a registration token works once; a revoked credential is refused", async ({ request }) => {
  const operator = await apiTokenFor("operator");
  const created = await request.post("/api/hosts", { headers: bearer(operator), data: { name: `once-${Date.now()}` } });
  const { registrationToken } = (await created.json()) as { registrationToken: string };
  const body = { registrationToken, profile: {}, capabilities: { agentVersion: "t", tools: {}, allowedDirs: [] } };
  expect((await request.post("/api/agent/register", { data: body })).status()).toBe(201);
  const again = await request.post("/api/agent/register", { data: body });
  expect(again.status()).toBe(401);
  expect((await again.json()).error).toMatch(/already used/);
});

test("cookie-authenticated mutations from another site are refused", async ({ page }) => {
  const { email, password } = await createUser("operator");
  await signInViaForm(page, email, password);
  await page.getByTestId("signed-in-as").waitFor();
  const same = await page.request.post("/api/hosts", { data: { name: "same-site" }, headers: { origin: new URL(page.url()).origin } });
  expect(same.status()).toBe(201);
  const cross = await page.request.post("/api/hosts", { data: { name: "evil" }, headers: { origin: "https://evil.example" } });
  expect(cross.status()).toBe(403);
  expect((await cross.json()).error).toMatch(/Cross-site/);
});

test("repeated wrong passwords are slowed down with a clear message", async ({ page }) => {
  const { email, password } = await createUser("viewer");
  // Backoff, not a fixed lock: wrong guesses are answered until the waits grow (1 s, 2 s, 4 s …).
  let wait = 0;
  for (let i = 0; i < 25 && wait < 5; i++) {
    await signInViaForm(page, email, "wrong-password");
    const text = await page.locator(".alert-error").innerText();
    if (i < 3) expect(text).toMatch(/Wrong/);
    wait = Number(/try again in (\d+) s/.exec(text)?.[1] ?? 0);
  }
  expect(wait).toBeGreaterThanOrEqual(5);
  // While the wait runs, even the right password is not checked.
  await signInViaForm(page, email, password);
  await expect(page.getByRole("alert").filter({ hasText: "Too many failed attempts" })).toBeVisible();
});

test("session cookies are HttpOnly and SameSite, and pages carry security headers", async ({ page }) => {
  const { email, password } = await createUser("viewer");
  await signInViaForm(page, email, password);
  await page.getByTestId("signed-in-as").waitFor();
  const cookie = (await page.context().cookies()).find((c) => c.name === "probebook_session");
  expect(cookie?.httpOnly).toBe(true);
  expect(cookie?.sameSite).toBe("Lax");
  const res = await page.goto("/guides");
  const h = res!.headers();
  expect(h["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(h["x-content-type-options"]).toBe("nosniff");
});
