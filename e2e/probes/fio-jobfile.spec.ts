// A fio job file on a real agent: pasted into the launch form (checked as it is typed with the
// allow-list), run to SUCCEEDED with fio reading the file the agent wrote into the run's
// directory, the run page showing the exact command and the file; a refused file names its
// option and line in the form, and `probebook run fio --job-file` refuses the same file before
// sending anything.
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "../fixtures";
import { apiTokenFor, signInAs } from "../helpers";
import { startAgent, type AgentHandle } from "../agent/agent-process";

const root = path.resolve(__dirname, "..", "..");
let agent: AgentHandle | null = null;
let hostName = "";
let hostId = "";

test.describe.configure({ mode: "serial" });

test.afterAll(async () => {
  await agent?.stop();
  if (agent) for (const dir of [agent.scratch, agent.stateDir]) fs.rmSync(dir, { recursive: true, force: true });
});

// Two jobs one after the other, each 3 s on its own 16 MiB file: a sequential write, then random reads.
const ACCEPTED = `; two phases
[global]
size=16m
ioengine=psync
bs=4k
runtime=3
time_based
buffered=1

[seq-write]
rw=write
stonewall

[rand-read]
rw=randread
stonewall
`;

const REFUSED = `[global]
size=16m
exec_prerun=touch /tmp/owned
[job]
rw=read
ioengine=external:/tmp/evil.so
`;

test("a pasted job file runs on the agent; the run page shows the command and the file", async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  await signInAs(page, "operator");
  await page.goto("/hosts/new");
  hostName = `e2e-fio-jobfile-${Date.now()}`;
  await page.getByLabel("Host name").fill(hostName);
  await page.getByRole("button", { name: "Add host" }).click();
  const token = (await page.getByTestId("registration-token").textContent())!.trim();
  agent = startAgent({ server: baseURL!, token });
  await expect.poll(() => agent!.output(), { timeout: 20_000 }).toContain("registered as host");
  hostId = /\(([0-9a-f-]{36})\)/.exec(agent.output())![1]!;

  await page.goto(`/runs/new?host=${hostId}`);
  const form = page.getByTestId("launch-form");
  await form.getByLabel("Preset").selectOption("fio:seq-read");
  await expect(form.getByLabel("Target directory")).toBeEnabled();
  await form.getByLabel("Target directory").selectOption(agent.scratch);
  await form.getByLabel("Job file", { exact: true }).check();
  await form.getByLabel(/^fio job file/).fill(ACCEPTED);
  await expect(form.getByTestId("fio-job-file-ok")).toContainText("2 jobs, 2 threads, writes up to 32 MiB");
  await form.getByRole("button", { name: "Launch" }).click();
  await expect(page).toHaveURL(/\/runs\/[0-9a-f-]{36}$/);
  const runId = page.url().split("/").pop()!;

  // The exact argv and the file, before and after the run.
  await expect(page.getByTestId("run-command-line")).toHaveText("fio --output-format=normal,json --eta=always --percentile_list=1:5:10:20:25:30:40:50:60:70:75:80:90:95:99:99.5:99.9:99.95:99.99:99.999 probebook-job.fio");
  await expect(page.getByTestId("run-job-file")).toContainText("[rand-read]");
  await expect(page.getByTestId("run-status")).toHaveText("succeeded", { timeout: 60_000 });
  await expect(page.getByTestId("run-job-file")).toHaveText(ACCEPTED.trimEnd());

  const run = (await (await page.request.get(`/api/runs/${runId}`)).json()) as { params: { jobFile?: string }; result: { measurements: { metric: string; value: number; dims: Record<string, unknown> }[] } };
  // The run stores the file; each job's figures are its own.
  expect(run.params.jobFile).toBe(ACCEPTED);
  const iops = (job: string, direction: string) => run.result.measurements.find((m) => m.metric === "iops" && m.dims.job === job && m.dims.direction === direction)?.value ?? 0;
  expect(iops("seq-write", "write")).toBeGreaterThan(0);
  expect(iops("rand-read", "read")).toBeGreaterThan(0);
  const chart = page.getByTestId("result-chart").filter({ hasText: "fio completion latency percentiles" });
  await expect(chart).toBeVisible();
  // fio's files and the job file went with the run's directory.
  expect(fs.readdirSync(agent.scratch)).toEqual([]);
});

test("a refused job file names its options and lines in the form, as typed and as the server answers", async ({ page }) => {
  await signInAs(page, "operator");
  await page.goto(`/runs/new?host=${hostId}`);
  const form = page.getByTestId("launch-form");
  await form.getByLabel("Preset").selectOption("fio:seq-read");
  await form.getByLabel("Job file", { exact: true }).check();
  await form.getByLabel(/^fio job file/).fill(REFUSED);
  const problems = form.getByTestId("fio-job-file-problems");
  await expect(problems).toContainText("line 3: exec_prerun runs a shell command on the host before the job");
  await expect(problems).toContainText("line 6: ioengine external:/tmp/evil.so loads a shared library from the host");
  await form.getByRole("button", { name: "Launch" }).click();
  await expect(form.getByRole("alert")).toContainText("jobFile: line 3: exec_prerun");
  await expect(page).toHaveURL(/\/runs\/new/);
  await expect(problems.locator("li")).toHaveCount(2);
});

test("probebook run fio --job-file refuses the same file with exit 2, naming the option", async ({ baseURL }) => {
  const token = await apiTokenFor("operator");
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "pb-jobfile-")), "bad.fio");
  fs.writeFileSync(file, REFUSED);
  const r = await new Promise<{ code: number; stderr: string }>((resolve) =>
    execFile(process.execPath, [path.join(root, "bin", "probebook.cjs"), "run", "fio", "--job-file", file, "--server", baseURL!, "--host", hostName, "--target", agent!.scratch], { cwd: root, env: { ...process.env, PROBEBOOK_TOKEN: token }, timeout: 60_000 }, (err, _stdout, stderr) =>
      resolve({ code: err ? Number((err as { code?: unknown }).code) : 0, stderr }),
    ),
  );
  fs.rmSync(path.dirname(file), { recursive: true, force: true });
  expect(r.stderr).toContain("line 3: exec_prerun runs a shell command on the host before the job");
  expect(r.code).toBe(2);
});
