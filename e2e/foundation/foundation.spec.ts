import { expect, test } from "../fixtures";
import { adminCli, createUser, signInViaForm, uniqueEmail } from "../helpers";

test("home page says what Probebook is and links to every area", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Linux storage and memory");
  const nav = page.getByRole("navigation", { name: "Main" });
  for (const name of ["Guides", "Hosts", "Runs", "Compare"]) {
    await expect(nav.getByRole("link", { name })).toBeVisible();
  }
});

test("health reports the database", async ({ request }) => {
  const r = await request.get("/api/health");
  expect(r.status()).toBe(200);
  expect(await r.json()).toEqual({ status: "ok", db: "ok" });
});

test("sign-in works for a CLI-made user and a wrong password shows an error", async ({ page }) => {
  const { email, password } = await createUser("operator");
  await signInViaForm(page, email, "not-the-password");
  await expect(page.getByRole("alert").filter({ hasText: "Wrong" })).toHaveText("Wrong email or password.");
  await signInViaForm(page, email, password);
  await expect(page.getByTestId("signed-in-as")).toContainText(email);
  await page.goto("/hosts");
  await expect(page.getByRole("heading", { level: 1, name: "Hosts" })).toBeVisible();
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByRole("banner").getByRole("link", { name: "Sign in" })).toBeVisible();
  await page.goto("/hosts");
  await expect(page).toHaveURL(/\/sign-in\?next=%2Fhosts/);
});

test("a protected API route answers 401 without a token and 200 with one", async ({ request }) => {
  const anonymous = await request.get("/api/hosts");
  expect(anonymous.status()).toBe(401);
  expect((await anonymous.json()).error).toMatch(/Bearer/);
  const { email } = await createUser("viewer");
  const t = await adminCli(["token", "create", "--email", email, "--name", "e2e"]);
  expect(t.code).toBe(0);
  const withToken = await request.get("/api/hosts", { headers: { Authorization: `Bearer ${t.stdout.trim()}` } });
  expect(withToken.status()).toBe(200);
  expect(await withToken.json()).toHaveProperty("hosts");
});

test("the admin CLI refuses a duplicate email, an unknown user and a bad role", async () => {
  const { email } = await createUser("viewer");
  const dup = await adminCli(["user", "create", "--email", email, "--password", "another-password", "--role", "viewer"]);
  expect(dup.code).not.toBe(0);
  expect(dup.stderr).toContain("already exists");
  const unknown = await adminCli(["token", "create", "--email", uniqueEmail("ghost"), "--name", "x"]);
  expect(unknown.code).not.toBe(0);
  expect(unknown.stderr).toMatch(/No user/);
  const badRole = await adminCli(["user", "create", "--email", uniqueEmail("r"), "--password", "long-enough", "--role", "root"]);
  expect(badRole.code).toBe(2);
  expect(badRole.stderr).toContain('unknown role "root"');
});
