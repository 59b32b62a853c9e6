import { type Browser, type Page } from "@playwright/test";
import { expect, test } from "../fixtures";
import { adminCli, apiTokenFor, bearer, createUser, signIn, signInAs, signInViaForm } from "../helpers";

const me = async (request: { get: (u: string, o?: object) => Promise<{ json: () => Promise<unknown> }> }, cookie?: string) =>
  ((await (await request.get("/api/me", cookie ? { headers: { cookie } } : undefined)).json()) as { user: { email: string } | null }).user;

async function cookieHeader(browser: Browser, email: string, password: string) {
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  await signIn(page, email, password);
  const cookies = await ctx.cookies();
  return { ctx, page, header: cookies.map((c) => `${c.name}=${c.value}`).join("; ") };
}

async function signInFrom(page: Page, url: string, user: { email: string; password: string }) {
  await page.goto(url);
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

const formAlert = (page: Page) => page.locator(".alert-error");

test("sign-in never redirects off-site, however `next` is disguised", async ({ page, baseURL }) => {
  const user = await createUser("viewer");
  for (const next of ["/%5C127.0.0.2:3999/phish", "//127.0.0.2:3999/phish", "/%09/127.0.0.2:3999", "https://127.0.0.2:3999/"]) {
    await page.context().clearCookies();
    await signInFrom(page, `/sign-in?next=${next}`, user);
    await page.getByTestId("signed-in-as").waitFor();
    expect(new URL(page.url()).origin, next).toBe(new URL(baseURL!).origin);
  }
  // A real same-site target still works.
  await page.context().clearCookies();
  await signInFrom(page, `/sign-in?next=${encodeURIComponent("/runs?status=QUEUED")}`, user);
  await expect(page).toHaveURL(/\/runs\?status=QUEUED$/);
});

test("a copied session cookie stops working after sign-out, and sign out everywhere ends other browsers", async ({ browser, playwright, baseURL }) => {
  const user = await createUser("operator");
  const api = await playwright.request.newContext({ baseURL });
  const a = await cookieHeader(browser, user.email, user.password);
  expect((await me(api, a.header))?.email).toBe(user.email);
  await a.page.goto("/sign-out");
  await a.page.getByRole("main").getByRole("button", { name: "Sign out", exact: true }).click();
  await a.page.waitForURL((u) => u.pathname === "/");
  // The attacker's copy of the cookie is dead too.
  expect(await me(api, a.header)).toBeNull();

  const b = await cookieHeader(browser, user.email, user.password);
  const c = await cookieHeader(browser, user.email, user.password);
  expect((await me(api, b.header))?.email).toBe(user.email);
  // The sign-out page lists both live sessions; ending the other one (b) from c kills b only.
  await c.page.goto("/sign-out");
  const rows = c.page.getByTestId("sessions-table").locator("tbody tr");
  await expect(rows).toHaveCount(2);
  await expect(rows.filter({ hasText: "this browser" })).toHaveCount(1);
  await rows.getByRole("button", { name: "End" }).click();
  await expect(rows).toHaveCount(1);
  expect(await me(api, b.header)).toBeNull();
  expect((await me(api, c.header))?.email).toBe(user.email);
  const d = await cookieHeader(browser, user.email, user.password);
  await c.page.goto("/sign-out");
  await c.page.getByRole("button", { name: "Sign out everywhere" }).click();
  await c.page.waitForURL(/\/sign-in/);
  expect(await me(api, c.header)).toBeNull();
  expect(await me(api, d.header)).toBeNull();
  await d.ctx.close();
  await Promise.all([a.ctx.close(), b.ctx.close(), c.ctx.close(), api.dispose()]);
});

test("an admin disables a user: their session and API token stop working; the audit log records it", async ({ browser, page, playwright, baseURL }) => {
  const victim = await createUser("operator");
  const tokenRun = await adminCli(["token", "create", "--email", victim.email, "--name", "ci", "--expires-days", "30"]);
  expect(tokenRun.code, tokenRun.stderr).toBe(0);
  const token = tokenRun.stdout.trim();
  const api = await playwright.request.newContext({ baseURL });
  const v = await cookieHeader(browser, victim.email, victim.password);
  expect((await api.get("/api/runs", { headers: bearer(token) })).status()).toBe(200);

  const admin = await signInAs(page, "admin");
  await page.goto("/admin/users");
  await page.getByRole("button", { name: `Disable ${victim.email}` }).click();
  await expect(page.getByRole("button", { name: `Enable ${victim.email}` })).toBeVisible();
  expect(await me(api, v.header)).toBeNull();
  expect((await api.get("/api/runs", { headers: bearer(token) })).status()).toBe(401);
  // Signing in again is refused while disabled.
  await v.page.context().clearCookies();
  await signInViaForm(v.page, victim.email, victim.password);
  await expect(formAlert(v.page)).toContainText("disabled");

  await page.goto(`/admin/audit?action=user.disable`);
  const row = page.getByTestId("audit-table").locator("tr", { hasText: admin.email }).first();
  await expect(row).toContainText("user.disable");
  await expect(row).toContainText("127.0.0.1");
  const exported = await page.request.get("/api/admin/audit?action=user.disable");
  expect(exported.status()).toBe(200);
  const events = ((await exported.json()) as { events: { actorEmail: string; action: string; ip: string }[] }).events;
  expect(events.some((e) => e.actorEmail === admin.email && e.action === "user.disable" && e.ip === "127.0.0.1")).toBe(true);
  // Viewers and operators cannot read it.
  expect((await api.get("/api/admin/audit", { headers: bearer(await apiTokenFor("operator")) })).status()).toBe(403);
  expect((await page.request.get("/api/admin/audit?from=2026-13-45")).status()).toBe(400);
  await Promise.all([v.ctx.close(), api.dispose()]);
});

test("failed sign-ins back off per account and client even with a rotated X-Forwarded-For", async ({ page }) => {
  const user = await createUser("viewer");
  let blocked = false;
  for (let i = 0; i < 8 && !blocked; i++) {
    await page.setExtraHTTPHeaders({ "x-forwarded-for": `198.51.100.${i + 1}` });
    await signInViaForm(page, user.email, `wrong-${i}`);
    const alert = formAlert(page);
    await expect(alert).toBeVisible();
    blocked = /try again in \d+ s/.test(await alert.innerText());
  }
  expect(blocked).toBe(true);
});

test("shares: host details are private by default; the sharer withdraws a link and it is gone", async ({ request }) => {
  const operator = await apiTokenFor("operator");
  const other = await apiTokenFor("operator");
  const imported = await request.post("/api/runs/import", {
    headers: bearer(operator),
    data: { probe: "dd", output: "268435456 bytes (268 MB, 256 MiB) copied, 1.25 s, 215 MB/s\n", hostLabel: "db-secret-17" },
  });
  expect(imported.status()).toBe(201);
  const { id } = (await imported.json()) as { id: string };
  const shared = await request.post("/api/comparisons", { headers: bearer(operator), data: { runIds: [id], title: "private", expiresInDays: 7 } });
  expect(shared.status()).toBe(201);
  const { slug } = (await shared.json()) as { slug: string };
  const json = await request.get(`/api/comparisons/${slug}`);
  expect(json.status()).toBe(200);
  expect(await json.text()).not.toContain("db-secret-17");
  expect((await request.post(`/api/comparisons/${slug}/revoke`, { headers: bearer(other) })).status()).toBe(403);
  expect((await request.post(`/api/comparisons/${slug}/revoke`, { headers: bearer(operator) })).status()).toBe(200);
  expect((await request.get(`/api/comparisons/${slug}`)).status()).toBe(410);
  expect((await request.get(`/api/comparisons/${slug}/csv`)).status()).toBe(410);
  expect((await request.get(`/c/${slug}`)).status()).toBe(404);
  // Deleting removes the record as well: the link is then unknown (404), not withdrawn.
  expect((await request.delete(`/api/comparisons/${slug}`, { headers: bearer(other) })).status()).toBe(403);
  expect((await request.delete(`/api/comparisons/${slug}`, { headers: bearer(operator) })).status()).toBe(200);
  expect((await request.get(`/api/comparisons/${slug}`)).status()).toBe(404);
});

test("a burst of host creations stops at the per-user limit with a clear 429", async ({ request }) => {
  const operator = await apiTokenFor("operator");
  const results = await Promise.all(Array.from({ length: 25 }, (_, i) => request.post("/api/hosts", { headers: bearer(operator), data: { name: `burst-${i}` } })));
  const statuses = results.map((r) => r.status());
  expect(statuses.filter((s) => s === 201)).toHaveLength(10);
  expect(statuses.filter((s) => s === 429)).toHaveLength(15);
  const refused = results.find((r) => r.status() === 429)!;
  expect(((await refused.json()) as { error: string }).error).toMatch(/registration tokens not used yet/);
});

test("pages carry a nonce CSP without 'unsafe-inline' for scripts; injected markup does not run", async ({ page }) => {
  const res = await page.goto("/guides");
  const csp = res!.headers()["content-security-policy"] ?? "";
  const scriptSrc = csp.split(";").find((d) => d.trim().startsWith("script-src")) ?? "";
  expect(scriptSrc).toMatch(/'nonce-[A-Za-z0-9+/=]+'/);
  expect(scriptSrc).not.toContain("unsafe-inline");
  // Two loads, two nonces.
  const again = (await page.request.get("/guides")).headers()["content-security-policy"];
  expect(again).not.toBe(csp);
  // Simulate stored XSS: the server's real response (its real CSP header) with markup an attacker
  // managed to get into the HTML. The browser must refuse both the script and the handler.
  await page.route("**/guides", async (route) => {
    const real = await route.fetch();
    const html = (await real.text()).replace(
      "<body>",
      `<body><script>window.__pwned = true</script><img src="/no-such-image.png" onerror="window.__pwned2 = true">`,
    );
    await route.fulfill({ response: real, body: html });
  });
  const violations: string[] = [];
  page.on("console", (m) => {
    if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
  });
  await page.goto("/guides");
  // The app's own scripts do run: the header's sign-in link is rendered by client code.
  await page.getByRole("banner").getByRole("link", { name: "Sign in" }).waitFor();
  await page.waitForTimeout(300);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: boolean }).__pwned ?? false)).toBe(false);
  expect(await page.evaluate(() => (window as unknown as { __pwned2?: boolean }).__pwned2 ?? false)).toBe(false);
  expect(violations.length).toBeGreaterThan(0);
});

test("the share form asks which host details to include; ticked ones are published, the rest are not", async ({ page }) => {
  await signInAs(page, "operator");
  const output = "268435456 bytes (268 MB, 256 MiB) copied, 1.25 s, 215 MB/s\n";
  const ids: string[] = [];
  for (const hostLabel of ["bench-named-42", "bench-hidden-43"]) {
    const r = await page.request.post("/api/runs/import", { data: { probe: "dd", output, hostLabel } });
    expect(r.status()).toBe(201);
    ids.push(((await r.json()) as { id: string }).id);
  }
  const shareWith = async (tickNames: boolean) => {
    await page.goto(`/compare?runs=${ids.join(",")}`);
    await page.getByRole("button", { name: "Share" }).click();
    const names = page.getByRole("checkbox", { name: "Host names" });
    await expect(names).not.toBeChecked();
    await expect(page.getByRole("checkbox", { name: "Directories and mount points" })).not.toBeChecked();
    if (tickNames) await names.check();
    await page.getByRole("button", { name: "Create share link" }).click();
    const url = await page.getByTestId("share-url").inputValue();
    return (await page.request.get(`/api/comparisons/${url.split("/").pop()}`)).text();
  };
  const hidden = await shareWith(false);
  expect(hidden).not.toContain("bench-named-42");
  expect(hidden).toContain("host A");
  const named = await shareWith(true);
  expect(named).toContain("bench-named-42");
  expect(named).toContain("bench-hidden-43");
});
