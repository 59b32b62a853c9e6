// The metadata probe end to end: launched from the UI on a real agent, fio's ETA lines and
// progress live in the browser, the parsed create/stat/delete rates, and the comparison with
// the 50,000-table guide's reference runs.
import fs from "node:fs";
import { expect, test } from "../fixtures";
import { signInAs } from "../helpers";
import { startAgent, type AgentHandle } from "./agent-process";

let agent: AgentHandle | null = null;

test.describe.configure({ mode: "serial" });

test.afterAll(async () => {
  await agent?.stop();
  if (agent) for (const dir of [agent.scratch, agent.stateDir]) fs.rmSync(dir, { recursive: true, force: true });
});

test("fsmeta: 50,000 files from the UI, live, parsed and beside the guide's reference runs", async ({ page, baseURL }) => {
  test.setTimeout(240_000);
  await signInAs(page, "operator");
  await page.goto("/hosts/new");
  await page.getByLabel("Host name").fill(`e2e-fsmeta-${Date.now()}`);
  await page.getByRole("button", { name: "Add host" }).click();
  const token = (await page.getByTestId("registration-token").textContent())!.trim();
  agent = startAgent({ server: baseURL!, token });
  await expect.poll(() => agent!.output(), { timeout: 20_000 }).toContain("registered as host");
  const hostId = /\(([0-9a-f-]{36})\)/.exec(agent.output())![1]!;

  // The guide's Reproduce button names the preset the launch form then offers.
  await page.goto("/guides/filesystem-metadata-create-drop");
  await expect(page.getByText("50,000 files in one directory (create, stat, delete)")).toBeVisible();

  await page.goto(`/runs/new?host=${hostId}`);
  const form = page.getByTestId("launch-form");
  await form.getByLabel("Preset").selectOption("fsmeta:flat-50k");
  await form.getByLabel("Target directory").selectOption(agent.scratch);
  await form.getByRole("button", { name: "Launch" }).click();
  await expect(page).toHaveURL(/\/runs\/[0-9a-f-]{36}$/);

  // Live: fio's header arrives while the run is on, with the probe's progress (how far it got
  // depends on the disk: a fast one finishes a step between two of fio's once-a-second ETA lines).
  const terminal = page.getByTestId("run-terminal").locator(".xterm-rows");
  await expect(terminal).toContainText("Starting 3 processes", { timeout: 60_000 });
  await expect(page.getByTestId("run-progress")).toContainText(/starting: 50,000 files|(create|stat|delete) \(step [123] of 3\)|finished/, { timeout: 60_000 });
  await expect(page.getByTestId("run-status")).toHaveText("succeeded", { timeout: 180_000 });
  // The stored log holds fio's ETA lines (the progress source), its JSON report and its text report.
  // On a fast disk the three steps take about a second, and fio's only ETA line is the last one,
  // "Jobs: 0 (f=0)", without the per-job status brackets.
  const log = await (await page.request.get(`/api/runs/${page.url().split("/").pop()}/log`)).text();
  expect(log).toMatch(/Jobs: \d+ \(f=\d+\)/);
  expect(log).toContain('"fio version"');
  await expect(terminal).toContainText("Run status group 2");

  // Parsed: a rate and latencies per step, drawn and listed.
  await expect(page.getByTestId("result-chart").first()).toBeVisible();
  await page.getByText("All measurements").click();
  const measurements = page.getByTestId("measurements");
  for (const op of ["create", "stat", "delete"]) await expect(measurements).toContainText(op);
  await expect(measurements).toContainText("files/s");
  expect(fs.readdirSync(agent.scratch)).toEqual([]);

  // Compared with the article's figures: one reference run per file system, same steps.
  await page.getByTestId("compare-reference").click();
  await expect(page).toHaveURL(/\/compare\?runs=/);
  await expect(page.getByText("File-system metadata: create, stat and delete")).toBeVisible();
  await expect(page.locator('[data-chart="fsmeta-rate"]')).toBeVisible();
  await expect(page.getByText(/Stewart Smith.*· ext3/).first()).toBeVisible();
  await expect(page.getByText(/Stewart Smith.*· xfs/).first()).toBeVisible();
});
