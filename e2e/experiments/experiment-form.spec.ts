// The new-experiment form and an experiment's page, as a person meets them (issue #33): checkboxes
// and radios on their label's line, a Setting select that never preselects a setting the agent
// refuses, refusals named beside their fields, "Turn this into an experiment" from a compare of two
// fio random reads, Cancel experiment asking first and runs cancelled before they started not
// counted as done, and the share's choices offered before anything is published. One real agent,
// allowed one setting (vm.dirty_background_ratio, never written here) and no lab; short fio reads.
import { type Page } from "@playwright/test";
import { addHostWithAgent, removeAgent, type AgentHandle } from "../agent/agent-process";
import { expect, test } from "../fixtures";
import { signInAs } from "../helpers";

const ALLOWED = "vm.dirty_background_ratio";
let agent: AgentHandle | null = null;
let hostId = "";

test.describe.configure({ mode: "serial" });

test.afterAll(async () => {
  await removeAgent(agent);
});

async function setUp(page: Page, baseURL: string) {
  await signInAs(page, "operator");
  if (agent) return;
  const added = await addHostWithAgent(page, { baseURL, name: "e2e-exp-form", extraArgs: ["--allow-tunable", ALLOWED] });
  agent = added.agent;
  hostId = added.hostId;
}

test("checkboxes and radios sit on their label's line; the Setting select starts on a setting the agent allows", async ({ page, baseURL }) => {
  await setUp(page, baseURL!);
  await page.goto(`/experiments/new?host=${hostId}`);
  const form = page.getByTestId("experiment-form");
  // The default (vm.dirty_ratio) is not allowed by this agent: the select shows, and sends, one that is.
  const setting = form.getByRole("combobox", { name: "Setting" });
  await expect(setting).toHaveValue(ALLOWED);
  await expect(setting.locator("option:checked")).not.toBeDisabled();
  for (const control of [form.getByRole("radio", { name: "Values of one kernel setting" }), form.getByRole("checkbox", { name: /^Warm-up/ })]) {
    const box = (await control.boundingBox())!;
    const label = (await control.locator("xpath=ancestor::label[1]").boundingBox())!;
    // On one line the label is about as tall as its text; stacked, it is the control plus a line more.
    expect(label.height).toBeLessThan(box.height + 12);
    expect(box.x - label.x).toBeLessThan(8);
  }
});

test("bad values are named beside the values field, never as 'at least two arms' alone", async ({ page, baseURL }) => {
  await setUp(page, baseURL!);
  await page.goto(`/experiments/new?host=${hostId}`);
  const form = page.getByTestId("experiment-form");
  const values = form.getByRole("textbox", { name: /^Values, one arm each/ });
  const beside = form.getByTestId("tunable-arms").locator('.field-error[data-field="arms"]');

  await values.fill("20");
  await form.getByRole("button", { name: "Start experiment" }).click();
  await expect(beside).toHaveText(/Give at least two values, one per arm/);
  await expect(values).toHaveAttribute("aria-invalid", "true");

  await values.fill("20, 999");
  await form.getByRole("button", { name: "Start experiment" }).click();
  await expect(beside).toHaveText(new RegExp(`value 2 \\(999\\): ${ALLOWED.replace(/\./g, "\\.")} must be from 0 to 100`));
  // The alert lists no raw path such as arms.1.tunables.vm.dirty_background_ratio.
  await expect(form.getByTestId("form-error")).not.toContainText("arms.1");
  await expect(form.getByTestId("form-error")).not.toContainText("at least two arms");
});

test("Launch names Repeats beside its field when it is 0 or 999", async ({ page, baseURL }) => {
  await setUp(page, baseURL!);
  await page.goto(`/runs/new?host=${hostId}&probe=fio&preset=rand-read-4k`);
  const form = page.getByTestId("launch-form");
  for (const n of ["0", "999"]) {
    await form.getByRole("spinbutton", { name: /^Repeats/ }).fill(n);
    await form.getByRole("button", { name: "Launch" }).click();
    await expect(form.locator('.field-error[data-field="repeats"]')).toHaveText("Repeats must be between 1 and 20.");
    await expect(form.getByTestId("form-error")).toContainText("Repeats must be between 1 and 20.");
    await expect(form.getByTestId("form-error")).not.toContainText("Some fields are invalid");
  }
});

test("Turn this into an experiment from two fio random-read runs opens with their preset, parameters and target", async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  await setUp(page, baseURL!);
  const target = agent!.scratch;
  const ids: string[] = [];
  for (let i = 0; i < 2; i++) {
    const r = await page.request.post("/api/runs", { data: { hostId, probe: "fio", preset: "rand-read-4k", params: { target, sizeMiB: 8, runtimeSec: 1, direct: false } } });
    expect(r.status(), await r.text()).toBe(201);
    ids.push(((await r.json()) as { id: string }).id);
  }
  for (const id of ids) {
    await expect.poll(async () => ((await (await page.request.get(`/api/runs/${id}`)).json()) as { status: string }).status, { timeout: 60_000 }).toBe("SUCCEEDED");
  }
  await page.goto(`/compare?runs=${ids.join(",")}`);
  await page.getByTestId("compare-to-experiment").click();
  await expect(page).toHaveURL(/\/experiments\/new\?/);
  const form = page.getByTestId("experiment-form");
  await expect(form.getByRole("combobox", { name: "Probe and preset" })).toHaveValue("fio:rand-read-4k");
  const params = JSON.parse(await form.getByRole("textbox", { name: /^Parameters/ }).inputValue()) as Record<string, unknown>;
  expect(params).toMatchObject({ rw: "randread", sizeMiB: 8, runtimeSec: 1, direct: false });
  await expect(form.getByRole("combobox", { name: "Target directory" })).toHaveValue(target);
  await expect(form.getByRole("combobox", { name: "Setting" })).toHaveValue(ALLOWED);
});

test("an experiment's share offers the host-detail and expiry choices before it publishes", async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  await setUp(page, baseURL!);
  // Two targets as the arms (no setting is written), 1 s fio reads: a round ends in seconds.
  const created = await page.request.post("/api/experiments", {
    data: { hostId, probe: "fio", params: { rw: "randread", sizeMiB: 8, runtimeSec: 1, direct: false }, arms: [{ target: agent!.scratch }, { target: "/dev/shm" }], repeats: { min: 3, max: 3, warmup: false } },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  await expect
    .poll(async () => ((await (await page.request.get(`/api/experiments/${id}`)).json()) as { runs: { status: string }[] }).runs.some((r) => r.status === "SUCCEEDED"), { timeout: 60_000 })
    .toBe(true);
  await page.goto(`/experiments/${id}`);

  // Nothing is published by the first press: the choices come first.
  let posted = 0;
  page.on("request", (r) => {
    if (r.method() === "POST" && r.url().endsWith(`/api/experiments/${id}/share`)) posted++;
  });
  await page.getByRole("button", { name: "Share a frozen copy" }).click();
  const share = page.getByTestId("experiment-share-form");
  await expect(share.getByRole("checkbox", { name: "Host names and addresses" })).not.toBeChecked();
  await share.getByRole("combobox", { name: "Link expires" }).selectOption("7");
  expect(posted).toBe(0);
  await share.getByRole("button", { name: "Create share link" }).click();
  const path = (await page.getByTestId("experiment-share-link").getByRole("link").getAttribute("href"))!;
  expect(posted).toBe(1);
  // The expiry chosen is the link's.
  await page.goto("/settings/shares");
  const row = page.getByRole("row").filter({ has: page.locator(`a[href="${path}"]`) });
  await expect(row.locator("td").nth(2)).not.toHaveText("never");
  await page.request.post(`/api/experiments/${id}/cancel`);
});

test("Cancel experiment asks first, and runs cancelled before they started are not counted as done", async ({ page, baseURL }) => {
  await setUp(page, baseURL!);
  // With the agent stopped nothing is claimed: every run is still queued when it is cancelled.
  await agent!.stop();
  const created = await page.request.post("/api/experiments", {
    data: { hostId, probe: "fio", params: { rw: "randread", sizeMiB: 8, runtimeSec: 6, direct: false }, arms: [{ target: agent!.scratch }, { target: "/dev/shm" }], repeats: { min: 3, max: 3, warmup: false } },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  await page.goto(`/experiments/${id}`);

  await page.getByRole("button", { name: "Cancel experiment" }).click();
  const ask = page.getByTestId("cancel-confirm");
  await expect(ask).toContainText("Cancel this experiment?");
  await ask.getByRole("button", { name: "Keep it running" }).click();
  await expect(page.getByTestId("experiment-status")).toHaveText("running");
  await page.getByRole("button", { name: "Cancel experiment" }).click();
  await page.getByTestId("cancel-confirm").getByRole("button", { name: "Yes, cancel it" }).click();
  await expect(page.getByTestId("experiment-status")).toHaveText("cancelled");
  await expect(page.getByTestId("experiment-progress-text")).toHaveText(/^0 of (\d+) runs done, \1 cancelled before they started/);
});
