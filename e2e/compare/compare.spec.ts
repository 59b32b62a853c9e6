// Compare and share on real data: a real agent runs dd on the project's disk (ext4 here), on
// /dev/shm (tmpfs) and — as root — on loop-mounted ext3, ext4 and xfs file systems made here;
// the runs are picked on /runs, compared, shared, and the share link is opened signed out.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { type APIRequestContext } from "@playwright/test";
import { expect, test } from "../fixtures";
import { apiTokenFor, bearer, signInAs } from "../helpers";
import { mountLoopFs, root, startAgent, unmountLoopFs, type Agent, type LoopFs } from "./agent";

test.describe.configure({ mode: "serial" });

const isRoot = process.getuid?.() === 0;
const SKIP_LOOPS = "needs root: loop mounts (mount -o loop); run the suite as root to create and compare real ext3, ext4 and xfs file systems";

let agent: Agent | null = null;
let token = "";
let hostName = "";
let scratch = "";
let loopBase = "";
const loops: LoopFs[] = [];
const runs: { id: string; target: string; fsType: string }[] = [];
let shareUrl = "";
let slug = "";

async function waitForRun(request: APIRequestContext, id: string): Promise<{ status: string; fsType: string | null; medium: string | null; error: string | null }> {
  let last = { status: "QUEUED", fsType: null as string | null, medium: null as string | null, error: null as string | null };
  await expect
    .poll(
      async () => {
        last = await (await request.get(`/api/runs/${id}`, { headers: bearer(token) })).json();
        return last.status;
      },
      { timeout: 60_000, intervals: [250, 500, 1000] },
    )
    .toMatch(/^(SUCCEEDED|FAILED|CANCELLED|LOST)$/);
  expect(last.status, `run ${id} ended ${last.status}: ${last.error}\nagent output:\n${agent?.output().slice(-2000)}`).toBe("SUCCEEDED");
  return last;
}

async function ddOn(request: APIRequestContext, hostId: string, target: string) {
  const res = await request.post("/api/runs", { headers: bearer(token), data: { hostId, probe: "dd", params: { target, sizeMiB: 32, mode: "write" } } });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

let hostId = "";

test.beforeAll(async ({ request, baseURL }) => {
  test.setTimeout(120_000);
  token = await apiTokenFor("operator");
  fs.mkdirSync(path.join(root, ".data"), { recursive: true });
  scratch = fs.mkdtempSync(path.join(root, ".data", "e2e-compare-scratch-"));
  const allow = [scratch, "/dev/shm"];
  if (isRoot) {
    loopBase = fs.mkdtempSync(path.join(root, ".data", "e2e-compare-loops-"));
    for (const fsType of ["ext3", "ext4", "xfs"] as const) loops.push(await mountLoopFs(loopBase, fsType));
    allow.push(...loops.map((l) => l.mountPoint));
  }
  hostName = `cmp-${crypto.randomBytes(3).toString("hex")}`;
  const host = await request.post("/api/hosts", { headers: bearer(token), data: { name: hostName } });
  expect(host.status()).toBe(201);
  const { id, registrationToken } = (await host.json()) as { id: string; registrationToken: string };
  hostId = id;
  // Started after the mounts so the agent's --allow and its profile see the mounted file systems.
  agent = startAgent(baseURL!, registrationToken, allow);
  await expect.poll(() => agent!.output(), { timeout: 30_000 }).toContain(`registered as host "${hostName}"`);
});

test.afterAll(async () => {
  await agent?.stop();
  if (agent) fs.rmSync(agent.stateDir, { recursive: true, force: true });
  const problems: string[] = [];
  for (const l of loops) problems.push(...(await unmountLoopFs(l)));
  if (loopBase) fs.rmSync(loopBase, { recursive: true, force: true });
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  if (problems.length) console.warn(`loop cleanup: ${problems.join("; ")}`);
});

test("dd on the disk (ext4 scratch dir) and on /dev/shm (tmpfs)", async ({ request }) => {
  const disk = await ddOn(request, hostId, scratch);
  const shm = await ddOn(request, hostId, "/dev/shm");
  const a = await waitForRun(request, disk);
  const b = await waitForRun(request, shm);
  expect(b).toMatchObject({ fsType: "tmpfs", medium: "memory" });
  expect(a.fsType).not.toBe("tmpfs");
  runs.push({ id: disk, target: scratch, fsType: a.fsType! }, { id: shm, target: "/dev/shm", fsType: "tmpfs" });
});

test("dd on loop-mounted ext3, ext4 and xfs", async ({ request }) => {
  test.skip(!isRoot, SKIP_LOOPS);
  const ids = [];
  for (const l of loops) ids.push(await ddOn(request, hostId, l.mountPoint));
  for (const [i, l] of loops.entries()) {
    const r = await waitForRun(request, ids[i]!);
    expect(r.fsType).toBe(l.fsType);
    runs.push({ id: ids[i]!, target: l.mountPoint, fsType: l.fsType });
  }
});

test("pick the runs on /runs, compare them, see what differs, and share", async ({ page }) => {
  await signInAs(page, "operator");
  await page.goto(`/runs?host=${hostName}`);
  await expect(page.getByTestId("runs-table").locator("tbody tr")).toHaveCount(runs.length);
  // The first box with the keyboard, the others with the pointer.
  await page.locator(`input[data-run-id="${runs[0]!.id}"]`).focus();
  await page.keyboard.press("Space");
  for (const r of runs.slice(1)) await page.locator(`input[data-run-id="${r.id}"]`).check();
  await expect(page.getByTestId("selection-bar")).toContainText(`${runs.length} selected`);
  await page.getByTestId("compare-selected").click();
  await expect(page).toHaveURL(/\/compare\?runs=/);
  expect(new URL(page.url()).searchParams.get("runs")!.split(",")).toEqual(runs.map((r) => r.id));

  const chart = page.locator('[data-chart="dd-throughput"]');
  await expect(chart.getByTestId("compare-svg")).toBeVisible();
  await expect(chart).toContainText("MiB/s");
  await chart.getByTestId("compare-svg").hover();
  await expect(page.getByTestId("compare-tooltip")).toContainText("write");
  await expect(page.getByTestId("compare-tooltip")).toContainText("MiB/s");
  // Keyboard: the plot takes focus and the arrow keys move the tooltip.
  await page.mouse.move(0, 0);
  await chart.getByRole("group").focus();
  await expect(page.getByTestId("compare-tooltip")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("compare-tooltip")).toHaveCount(0);

  const differs = page.getByTestId("what-differs");
  // One cell per series in the "File system" field, whichever way the table is laid out.
  const fsCells = await differs.locator('td[data-field="fsType"]').allTextContents();
  expect(fsCells).toEqual(runs.map((r) => r.fsType));
  if (isRoot) expect(new Set(fsCells)).toEqual(new Set(["ext3", "ext4", "xfs", "tmpfs"]));
  expect(await differs.locator('td[data-field="medium"]').allTextContents()).toContain("memory");

  const values = page.getByTestId("values-dd");
  await expect(values).toContainText("throughput");
  await page.getByTestId("baseline-select").selectOption({ index: 1 });
  await expect(values.locator("thead")).toContainText("baseline");
  await expect(values).toContainText("%");

  await page.getByRole("button", { name: "Share" }).click();
  const title = `dd across file systems ${crypto.randomBytes(2).toString("hex")}`;
  await page.getByLabel("Title").fill(title);
  await page.getByRole("button", { name: "Create share link" }).click();
  shareUrl = await page.getByTestId("share-url").inputValue();
  expect(shareUrl).toMatch(/\/c\/[A-Za-z0-9_-]{32}$/);
  slug = shareUrl.split("/").pop()!;

  // Export links of the (unfrozen) comparison.
  const csv = await page.request.get(await page.getByRole("link", { name: "CSV" }).getAttribute("href").then((h) => h!));
  expect(csv.headers()["content-type"]).toContain("text/csv");
  expect((await csv.text()).split("\r\n")[0]).toBe("run,metric,dims,value,unit");
});

test("the share link opens signed out, read-only, with every label and the file-system difference", async ({ browser, request }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const res = await page.goto(shareUrl);
  expect(res?.status()).toBe(200);
  await expect(page.getByTestId("shared-title")).toContainText("dd across file systems");
  await expect(page.getByTestId("signed-in-as")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Share" })).toHaveCount(0);
  const json = (await (await request.get(`/api/comparisons/${slug}`)).json()) as { runs: { label: string }[] };
  expect(json.runs).toHaveLength(runs.length);
  const legend = page.getByTestId("compare-section-dd").getByRole("list", { name: /Series/ });
  // A chip may shorten a long label from the middle; its title holds the whole label.
  const titles = await legend.getByTestId("legend-label").evaluateAll((els) => els.map((e) => e.getAttribute("title") ?? ""));
  for (const r of json.runs) expect(titles.some((t) => t.includes(r.label)), `${r.label} in ${titles.join(" | ")}`).toBe(true);
  expect(await page.getByTestId("what-differs").locator('td[data-field="fsType"]').allTextContents()).toEqual(runs.map((r) => r.fsType));
  await expect(page.locator('[data-chart="dd-throughput"]').getByTestId("compare-svg")).toBeVisible();
  // Open Graph: title and a generated preview image.
  await expect(page.locator('meta[property="og:title"]')).toHaveAttribute("content", /dd across file systems/);
  const ogImage = await page.locator('meta[property="og:image"]').getAttribute("content");
  expect(ogImage).toBeTruthy();
  const img = await request.get(new URL(ogImage!).pathname + new URL(ogImage!).search);
  expect(img.status()).toBe(200);
  expect(img.headers()["content-type"]).toBe("image/png");
  await context.close();
});

test("public JSON and CSV, 404 for unknown slugs, and the share API's checks", async ({ request, page }) => {
  const json = await request.get(`/api/comparisons/${slug}`);
  expect(json.status()).toBe(200);
  const body = (await json.json()) as { title: string; createdAt: string; runs: { label: string; probe: string; profile: unknown; result: { measurements: unknown[] } }[] };
  expect(body.title).toMatch(/dd across file systems/);
  expect(body.runs.every((r) => r.probe === "dd" && r.result.measurements.length === 3)).toBe(true);

  const csv = await request.get(`/api/comparisons/${slug}/csv`);
  expect(csv.status()).toBe(200);
  expect(csv.headers()["content-type"]).toBe("text/csv; charset=utf-8");
  expect(csv.headers()["content-disposition"]).toMatch(/^attachment; filename="probebook-dd-across-file-systems-[0-9a-f]{4}\.csv"/);
  const lines = (await csv.text()).trim().split("\r\n");
  expect(lines[0]).toBe("run,metric,dims,value,unit");
  expect(lines).toHaveLength(1 + runs.length * 3);
  // Exports use the units the pages show: throughput in MiB/s.
  expect(lines.some((l) => /,throughput,,\d+(\.\d+)?,MiB\/s$/.test(l))).toBe(true);

  const unknown = "x".repeat(32);
  expect((await request.get(`/api/comparisons/${unknown}`)).status()).toBe(404);
  expect((await request.get(`/api/comparisons/${unknown}/csv`)).status()).toBe(404);
  expect((await page.goto(`/c/${unknown}`))?.status()).toBe(404);

  const ids = runs.map((r) => r.id);
  expect((await request.post("/api/comparisons", { data: { runIds: ids, title: "x" } })).status()).toBe(401);
  const viewer = await apiTokenFor("viewer");
  expect((await request.post("/api/comparisons", { headers: bearer(viewer), data: { runIds: ids, title: "x" } })).status()).toBe(403);
  const noTitle = await request.post("/api/comparisons", { headers: bearer(token), data: { runIds: ids, title: "" } });
  expect(noTitle.status()).toBe(400);
  expect((await noTitle.json()).fieldErrors.title).toEqual(["Give the comparison a title."]);
  const missing = crypto.randomUUID();
  const notFound = await request.post("/api/comparisons", { headers: bearer(token), data: { runIds: [ids[0], missing], title: "x" } });
  expect(notFound.status()).toBe(404);
  expect((await notFound.json()).error).toBe(`No run with id ${missing}.`);
  const created = await request.post("/api/comparisons", { headers: bearer(token), data: { runIds: ids.slice(0, 1), title: "one run" } });
  expect(created.status()).toBe(201);
  expect((await created.json()).slug).toMatch(/^[A-Za-z0-9_-]{32}$/);

  // Export of one run, signed in only.
  const runCsv = await request.get(`/api/runs/${ids[0]}/export?format=csv`, { headers: bearer(viewer) });
  expect(runCsv.status()).toBe(200);
  const runLines = (await runCsv.text()).split("\r\n").filter(Boolean);
  // The header and the three measurements; the machine's telemetry follows as telemetry.* rows,
  // and what the checks found as check.* rows (these dd runs last a fraction of a second).
  expect(runLines.filter((l) => !l.includes(",telemetry.") && !l.includes(",check."))).toHaveLength(4);
  expect(runLines.some((l) => l.includes(",check.too-short,"))).toBe(true);
  const runJson = await request.get(`/api/runs/${ids[0]}/export?format=json`, { headers: bearer(viewer) });
  expect((await runJson.json()).label).toContain(hostName);
  expect((await request.get(`/api/runs/${ids[0]}/export?format=csv`)).status()).toBe(401);
  expect((await request.get(`/api/runs/${ids[0]}/export?format=xml`, { headers: bearer(viewer) })).status()).toBe(400);
});

test("compare without runs explains itself; unknown ids are reported", async ({ page }) => {
  await signInAs(page, "viewer");
  await page.goto("/compare");
  await expect(page.getByTestId("compare-empty")).toContainText("Runs");
  await page.getByRole("link", { name: "Choose runs" }).click();
  await expect(page).toHaveURL(/\/runs$/);
  const gone = crypto.randomUUID();
  await page.goto(`/compare?runs=${runs[0]!.id},${gone}`);
  await expect(page.getByTestId("missing-runs")).toContainText(gone);
  await expect(page.getByText("Sharing needs the operator role.")).toBeVisible();
});
