// The users form after a refusal (issue #33): the field is named in words, not zod's raw text, and
// what was typed stays in the form to be corrected.
import { expect, test } from "../fixtures";
import { signInAs } from "../helpers";

test("the users form names the email that is too long and keeps what was typed", async ({ page }) => {
  await signInAs(page, "admin");
  await page.goto("/admin/users");
  const email = `${"a".repeat(250)}@example.com`;
  const form = page.locator("form").filter({ has: page.getByRole("button", { name: "Create user" }) });
  await form.locator('input[name="email"]').fill(email);
  await form.locator('input[name="password"]').fill("a-long-enough-password");
  await form.locator('select[name="role"]').selectOption("OPERATOR");
  await form.getByRole("button", { name: "Create user" }).click();
  await expect(form.getByRole("alert")).toHaveText("Email must be at most 254 characters.");
  await expect(form.locator('input[name="email"]')).toHaveValue(email);
  await expect(form.locator('input[name="password"]')).toHaveValue("a-long-enough-password");
  await expect(form.locator('select[name="role"]')).toHaveValue("OPERATOR");
  // Corrected, it goes through and the form is cleared for the next one.
  const ok = `ok-${Date.now().toString(36)}@example.com`;
  await form.locator('input[name="email"]').fill(ok);
  await form.getByRole("button", { name: "Create user" }).click();
  await expect(form.getByRole("status")).toContainText(`Created ${ok}`);
  await expect(form.locator('input[name="email"]')).toHaveValue("");
});
