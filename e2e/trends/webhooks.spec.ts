import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "../fixtures";
import { apiTokenFor, bearer, signInAs } from "../helpers";

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

test("an admin adds a webhook target, sees its secret once, sends a signed test and reads it in the delivery log", async ({ page }) => {
  const got: Received[] = [];
  const server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on("data", (c: Buffer) => parts.push(c));
    req.on("end", () => {
      got.push({ headers: req.headers, body: Buffer.concat(parts).toString("utf8") });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  try {
    await signInAs(page, "admin");
    await page.goto("/admin/webhooks");
    const name = `e2e-${crypto.randomUUID().slice(0, 6)}`;
    const form = page.getByTestId("webhook-create");
    // A URL with credentials is refused, naming the field.
    await form.getByLabel("Name").fill(name);
    await form.getByLabel("URL").fill("https://user:pw@example.com/x");
    await form.getByRole("button", { name: "Add target" }).click();
    await expect(form.getByRole("alert")).toContainText("url: Give an http:// or https:// URL without a user name or password");

    await form.getByLabel("URL").fill(url);
    await form.getByRole("button", { name: "Add target" }).click();
    const secret = (await page.getByTestId("webhook-secret-value").textContent())!.trim();
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await expect(page.getByTestId("webhook-secret").getByRole("button", { name: "Copy" })).toBeVisible();

    const card = page.locator(`[data-testid=webhook-target][data-name="${name}"]`);
    await card.getByRole("button", { name: "Send test" }).click();
    await expect(card.getByTestId("webhook-test-outcome")).toHaveText("Test delivered: the receiver answered HTTP 204.");
    expect(got).toHaveLength(1);
    const { headers, body } = got[0]!;
    expect(headers["x-probebook-event"]).toBe("test");
    const ts = headers["x-probebook-timestamp"] as string;
    expect(headers["x-probebook-signature"]).toBe(`sha256=${crypto.createHmac("sha256", secret).update(`${ts}.${body}`).digest("hex")}`);
    expect(JSON.parse(body)).toMatchObject({ event: "test", alert: { kind: "regression" } });

    const log = card.getByTestId("webhook-deliveries");
    await expect(log.getByRole("row")).toHaveCount(2);
    await expect(log).toContainText("test");
    await expect(log).toContainText("delivered");
    await expect(log).toContainText("204");

    // Shown once: after a reload the secret is gone from the page.
    await page.reload();
    await expect(page.getByTestId("webhook-secret")).toHaveCount(0);
    await expect(page.getByText(secret)).toHaveCount(0);
  } finally {
    await new Promise((r) => server.close(r));
  }
});

test("operators get 403 from the webhooks API and are turned away from the pages", async ({ page, request }) => {
  const operator = await apiTokenFor("operator");
  for (const [method, path] of [
    ["get", "/api/admin/webhooks"],
    ["get", "/api/admin/settings/retention"],
  ] as const) {
    const r = await request[method](path, { headers: bearer(operator) });
    expect(r.status(), path).toBe(403);
  }
  const create = await request.post("/api/admin/webhooks", { headers: bearer(operator), data: { name: "x", url: "https://example.com/x" } });
  expect(create.status()).toBe(403);
  await signInAs(page, "operator");
  for (const path of ["/admin/webhooks", "/admin/settings"]) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/forbidden\?need=admin/);
  }
});

test("the retention setting: an admin chooses N days, invalid values are refused with the field named", async ({ page, request }) => {
  const admin = await apiTokenFor("admin");
  const bad = await request.put("/api/admin/settings/retention", { headers: bearer(admin), data: { rawLogDays: 0 } });
  expect(bad.status()).toBe(400);
  expect(((await bad.json()) as { fieldErrors: Record<string, string[]> }).fieldErrors.rawLogDays).toBeDefined();
  await signInAs(page, "admin");
  await page.goto("/admin/settings");
  await page.getByLabel("Drop raw output a number of days after a run ended").check();
  await page.getByLabel("Days", { exact: true }).fill("90");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("status")).toHaveText("Saved: raw output is dropped 90 days after a run ends.");
  await expect(page.getByTestId("retention-now")).toContainText("deleted 90 days after the run ended");
  const now = await request.get("/api/admin/settings/retention", { headers: bearer(admin) });
  expect(await now.json()).toEqual({ rawLogDays: 90 });
  // Back to forever, so the rest of the suite's runs keep their logs.
  await page.getByLabel("Keep raw output forever").check();
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("status")).toHaveText("Saved: raw output is kept forever.");
});
