import { expect, test } from "../fixtures";
import { signInAs, uniqueEmail } from "../helpers";

test("an admin creates a user and changes a role in the UI; viewers cannot open the page", async ({ page, browser }) => {
  await signInAs(page, "admin");
  await page.goto("/admin/users");
  const email = uniqueEmail("made-in-ui");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password (at least 8 characters)").fill("a-long-password");
  await page.locator("form", { has: page.getByRole("button", { name: "Create user" }) }).locator("select[name=role]").selectOption("VIEWER");
  await page.getByRole("button", { name: "Create user" }).click();
  await expect(page.getByRole("status")).toContainText(`Created ${email}`);
  const row = page.getByTestId("users-table").getByRole("row").filter({ hasText: email });
  await row.getByLabel(`Role of ${email}`).selectOption("OPERATOR");
  await row.getByRole("button", { name: "Save" }).click();
  await expect(row.getByLabel(`Role of ${email}`)).toHaveValue("OPERATOR");

  const viewerContext = await browser.newContext();
  const viewer = await viewerContext.newPage();
  await signInAs(viewer, "viewer");
  await viewer.goto("/admin/users");
  await expect(viewer).toHaveURL(/\/forbidden\?need=admin/);
  await viewerContext.close();
});

test("a user creates an API token once, uses it, and revoking it locks it out", async ({ page, request }) => {
  await signInAs(page, "viewer");
  await page.goto("/settings/tokens");
  await page.getByLabel("Name").fill("e2e-ui");
  await page.getByRole("button", { name: "Create token" }).click();
  const token = (await page.getByTestId("new-token").textContent())!.trim();
  expect(token).toMatch(/^pbt_/);
  const ok = await request.get("/api/hosts", { headers: { Authorization: `Bearer ${token}` } });
  expect(ok.status()).toBe(200);
  await page.reload();
  await expect(page.getByTestId("tokens-table")).toContainText(token.slice(0, 10));
  await expect(page.getByTestId("new-token")).toHaveCount(0);
  await page.getByRole("button", { name: "Revoke e2e-ui" }).click();
  await expect(page.getByTestId("tokens-table")).toContainText("revoked");
  const refused = await request.get("/api/hosts", { headers: { Authorization: `Bearer ${token}` } });
  expect(refused.status()).toBe(401);
});
