import { apiTokenFor, registerFakeAgent, signInAs } from "../helpers";
import { expect, test } from "../fixtures";

test("an operator creates a schedule through the form, pauses, resumes and deletes it; a bad cron is named", async ({ page, request }) => {
  const token = await apiTokenFor("operator");
  const host = await registerFakeAgent(request, token, "sched");
  await signInAs(page, "operator");
  const name = `nightly-${Date.now()}`;

  await page.goto("/schedules/new");
  await page.getByLabel("Name").fill(name);
  await page.locator(`input[name="hostIds"][value="${host.id}"]`).check();
  await page.getByLabel("Probe and preset").selectOption("dd:write-direct");
  await page.getByLabel("Target directory").fill("/srv/pb");
  await page.getByRole("radio", { name: "Cron expression" }).check();
  await page.getByLabel(/^Cron/).fill("0 0 3 * * *");
  await page.getByLabel("Time zone").fill("Europe/Berlin");
  await page.getByRole("button", { name: "Create schedule" }).click();
  await expect(page.locator('[data-field="cron"]')).toContainText("seconds are not supported");
  await expect(page.getByLabel("Name")).toHaveValue(name);

  await page.getByLabel(/^Cron/).fill("0 3 * * *");
  await page.getByRole("button", { name: "Create schedule" }).click();
  await expect(page).toHaveURL(/\/schedules\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { name })).toBeVisible();
  await expect(page.getByText("cron 0 3 * * * (Europe/Berlin)")).toBeVisible();

  await page.goto("/schedules");
  const row = page.getByTestId("schedules-table").getByRole("row").filter({ hasText: name });
  await expect(row).toContainText("dd:write-direct on /srv/pb");
  await row.getByRole("button", { name: `Pause ${name}` }).click();
  await expect(row.locator(".badge-paused")).toBeVisible();
  await row.getByRole("button", { name: `Resume ${name}` }).click();
  await expect(row).toContainText("active");

  await row.getByRole("link", { name }).click();
  await page.getByRole("button", { name: "Delete schedule" }).click();
  await page.getByRole("group", { name: /Confirm/ }).getByRole("button").first().click();
  await expect(page).toHaveURL(/\/schedules$/);
  await expect(page.getByText(name)).toHaveCount(0);
});
