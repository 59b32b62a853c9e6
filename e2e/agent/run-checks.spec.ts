import { expect, test } from "../fixtures";
import { apiTokenFor, bearer, signInAs } from "../helpers";
import { addHostWithAgent, removeAgent, type AgentHandle } from "./agent-process";

// Runs checked against their own telemetry (probes/checks), through a real agent on the
// project's disk: the flags are computed at finish and shown on the run page with their figures.
let agent: AgentHandle | null = null;
let hostId = "";

test.describe.configure({ mode: "serial" });

test.afterAll(() => removeAgent(agent));

interface RunFlags {
  status: string;
  checkedAt: string | null;
  flags: { code: string; title: string; evidence: string; guide: { href: string } | null }[];
}

async function launch(request: import("@playwright/test").APIRequestContext, api: Record<string, string>, params: object): Promise<string> {
  const res = await request.post("/api/runs", { headers: api, data: { hostId, probe: "dd", params: { target: agent!.scratch, ...params } } });
  expect(res.status()).toBe(201);
  const body = (await res.json()) as { id?: string; ids?: string[]; runs?: { id: string }[] };
  return body.id ?? body.ids?.[0] ?? body.runs![0]!.id;
}

async function finished(request: import("@playwright/test").APIRequestContext, api: Record<string, string>, id: string): Promise<RunFlags> {
  await expect.poll(async () => ((await (await request.get(`/api/runs/${id}`, { headers: api })).json()) as RunFlags).status, { timeout: 60_000 }).toBe("SUCCEEDED");
  return (await (await request.get(`/api/runs/${id}`, { headers: api })).json()) as RunFlags;
}

test("a buffered dd read of its freshly laid-out file is flagged as served from the page cache, with its figures", async ({ page, request, baseURL }) => {
  await signInAs(page, "operator");
  ({ agent, hostId } = await addHostWithAgent(page, { baseURL: baseURL!, name: "e2e-checks" }));
  const api = bearer(await apiTokenFor("operator"));

  // The agent writes and flushes the file before dd starts: it stays in the page cache, so a read
  // without iflag=direct never reaches the device.
  const id = await launch(request, api, { mode: "read", sizeMiB: 128, blockSizeKiB: 1024, direct: false, fdatasync: false });
  const run = await finished(request, api, id);
  expect(run.checkedAt).not.toBeNull();
  const cached = run.flags.find((f) => f.code === "cache-served-read");
  expect(cached?.evidence).toMatch(/^the device read [\d.,]+ MiB while dd read 128 MiB without iflag=direct/);
  expect(cached?.guide?.href).toBe("/guides/ext2-ext3-ext4-iozone#caveats");

  await page.goto(`/runs/${id}`);
  const panel = page.getByTestId("run-checks-invalid");
  await expect(panel).toContainText("Not a valid measurement");
  const item = panel.locator('[data-code="cache-served-read"]');
  await expect(item).toContainText("The read was served from the page cache");
  await expect(item).toContainText("while dd read 128 MiB without iflag=direct");
  await expect(item.getByTestId("run-check-guide")).toHaveAttribute("href", "/guides/ext2-ext3-ext4-iozone#caveats");

  // The exports carry the flags too.
  const csv = await (await request.get(`/api/runs/${id}/export?format=csv`, { headers: api })).text();
  expect(csv).toMatch(/check\.cache-served-read,"?the device read/);
  const json = (await (await request.get(`/api/runs/${id}/export?format=json`, { headers: api })).json()) as RunFlags;
  expect(json.flags.map((f) => f.code)).toContain("cache-served-read");
});

test("a tiny dd write is flagged too short, with dd's own time as evidence", async ({ page, request }) => {
  const api = bearer(await apiTokenFor("operator"));
  const id = await launch(request, api, { mode: "write", sizeMiB: 4, blockSizeKiB: 1024, direct: true, fdatasync: true });
  const run = await finished(request, api, id);
  const short = run.flags.find((f) => f.code === "too-short");
  expect(short?.evidence).toMatch(/^dd timed [\d.]+ s of work, less than the 5 s a measurement needs/);

  await signInAs(page, "operator");
  await page.goto(`/runs/${id}`);
  const item = page.getByTestId("run-checks-invalid").locator('[data-code="too-short"]');
  await expect(item).toContainText("Too short to be a measurement");
  await expect(item).toContainText(/dd timed [\d.]+ s of work/);
  await expect(item.getByTestId("run-check-guide")).toHaveAttribute("href", "/guides/storage-media-disk-flash-memory#caveats");
});

interface ExperimentChecks {
  status: string;
  decision: string | null;
  decisionMessage: string | null;
  verdict: { state: string; ratio: number | null; sentence: string }[];
  runs: { id: string; armIndex: number; status: string; excludedBecause: string[] }[];
}

test("an experiment leaves flagged runs out, shows why, and states no ratio from them", async ({ page, request }) => {
  test.setTimeout(120_000);
  const api = bearer(await apiTokenFor("operator"));
  // Buffered reads of freshly written files: on the disk they come from the page cache, and on
  // both targets they last a fraction of a second. Not one run is a measurement.
  const created = await request.post("/api/experiments", {
    headers: api,
    data: {
      hostId,
      probe: "dd",
      params: { mode: "read", sizeMiB: 64, blockSizeKiB: 1024, direct: false, fdatasync: false },
      arms: [{ label: "disk", target: agent!.scratch }, { label: "shm", target: "/dev/shm" }],
      repeats: { min: 3, max: 3, warmup: false },
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  await expect.poll(async () => ((await (await request.get(`/api/experiments/${id}`, { headers: api })).json()) as ExperimentChecks).status, { timeout: 90_000 }).toBe("FINISHED");
  const e = (await (await request.get(`/api/experiments/${id}`, { headers: api })).json()) as ExperimentChecks;
  expect(e.decision).toBe("max");
  expect(e.decisionMessage).toMatch(/^no interval yet \(0 of 3 valid runs per arm\)/);
  // No valid run, so no figure to compare and no line; a line that existed would only be collecting.
  expect(e.verdict.filter((l) => l.state !== "collecting" || l.ratio !== null)).toEqual([]);
  expect(e.runs).toHaveLength(6);
  for (const r of e.runs) {
    expect(r.status).toBe("SUCCEEDED");
    expect(r.excludedBecause).toContain("Too short to be a measurement");
    if (r.armIndex === 0) expect(r.excludedBecause).toContain("The read was served from the page cache");
  }

  await signInAs(page, "operator");
  await page.goto(`/experiments/${id}`);
  const counted = page.getByTestId("run-counted");
  await expect(counted).toHaveCount(6);
  await expect(counted.filter({ hasText: /^no: / })).toHaveCount(6);
  await expect(counted.filter({ hasText: "served from the page cache" })).toHaveCount(3);
  await expect(page.getByText(/% (faster|slower) than/)).toHaveCount(0);
});
