// A paste holding two dd runs (a bash session captured with `script`: prompts, colour, `time`
// reports, CRLF) offered and imported as two runs or as one repeated series.
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "../fixtures";
import { apiTokenFor, bearer, signInAs } from "../helpers";

const session = readFileSync(path.join(__dirname, "..", "..", "probes", "dd", "fixtures", "paste-bash-time-session.txt"), "utf8");
const write = "dd if=/dev/zero of=/tmp/pastefx/a.bin bs=1M count=64 conv=fdatasync";
const read = "dd if=/tmp/pastefx/a.bin of=/dev/null bs=1M";

interface Measurement {
  metric: string;
  value: number;
  dims: Record<string, string | number>;
}
const value = (ms: Measurement[], metric: string, dims: Record<string, string | number> = {}) =>
  ms.find((m) => m.metric === metric && Object.entries(dims).every(([k, v]) => m.dims[k] === v))?.value;

test("a two-run dd paste is offered as two runs and imported as two runs with their own figures", async ({ page, request }) => {
  await signInAs(page, "operator");
  await page.goto("/import");
  await page.getByLabel("Tool").selectOption("dd");
  await page.getByLabel("Machine it ran on").fill("paste-lab");
  await page.getByLabel("Output (paste here or choose a file above)").fill(session);
  await expect(page.getByTestId("import-preview")).toHaveText("2 dd runs found · read as coreutils dd");
  const runs = page.getByTestId("import-runs");
  await expect(runs.getByRole("listitem")).toHaveText([`${write} · real 0.188 s`, `${read} · real 0.012 s`]);
  await expect(runs.getByRole("radio", { name: /Separate runs: 2 runs/ })).toBeChecked();
  await page.getByRole("button", { name: "Import" }).click();
  await expect(page).toHaveURL(/\/compare\?runs=[0-9a-f-]{36},[0-9a-f-]{36}$/);

  const ids = new URL(page.url()).searchParams.get("runs")!.split(",");
  const operator = await apiTokenFor("operator");
  const stored = await Promise.all(ids.map(async (id) => (await request.get(`/api/runs/${id}`, { headers: bearer(operator) })).json()));
  expect(stored.map((r) => r.notes)).toEqual([`$ ${write}`, `$ ${read}`]);
  expect(stored.map((r) => [value(r.result.measurements, "bytes"), value(r.result.measurements, "seconds")])).toEqual([
    [67108864, 0.179999],
    [67108864, 0.0110644],
  ]);
});

test("the same paste as one repeated series is one run with run 1 and 2", async ({ page, request }) => {
  await signInAs(page, "operator");
  await page.goto("/import");
  await page.getByLabel("Tool").selectOption("dd");
  await page.getByLabel("Machine it ran on").fill("paste-lab");
  await page.getByLabel("Output (paste here or choose a file above)").fill(session);
  await page.getByRole("radio", { name: /One repeated series/ }).check();
  await page.getByRole("button", { name: "Import" }).click();
  await expect(page).toHaveURL(/\/runs\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId("run-status")).toHaveText("succeeded");
  const id = page.url().split("/").pop()!;
  const operator = await apiTokenFor("operator");
  const run = await (await request.get(`/api/runs/${id}`, { headers: bearer(operator) })).json();
  expect([value(run.result.measurements, "seconds", { run: 1, command: write }), value(run.result.measurements, "seconds", { run: 2, command: read })]).toEqual([0.179999, 0.0110644]);
});

test("the API asks for the runs choice, naming the field, and previews without storing", async ({ request }) => {
  const operator = await apiTokenFor("operator");
  const preview = await request.post("/api/runs/import/preview", { headers: bearer(operator), data: { probe: "dd", output: session } });
  expect(preview.status()).toBe(200);
  expect(await preview.json()).toMatchObject({ summary: "2 dd runs found", runs: [{ command: write }, { command: read }] });

  const missing = await request.post("/api/runs/import", { headers: bearer(operator), data: { probe: "dd", output: session, hostLabel: "x" } });
  expect(missing.status()).toBe(400);
  expect((await missing.json()).fieldErrors.runs[0]).toContain("2 dd runs");
  const wrong = await request.post("/api/runs/import", { headers: bearer(operator), data: { probe: "dd", output: session, hostLabel: "x", runs: "both" } });
  expect(wrong.status()).toBe(400);
  expect((await wrong.json()).fieldErrors.runs).toBeDefined();

  const series = await request.post("/api/runs/import", { headers: bearer(operator), data: { probe: "dd", output: session, hostLabel: "x", runs: "series" } });
  expect(series.status()).toBe(201);
  expect(await series.json()).toMatchObject({ runs: 2, ids: [expect.any(String)] });

  const unreadable = await request.post("/api/runs/import/preview", { headers: bearer(operator), data: { probe: "dd", output: "$ ls\nfoo\n" } });
  expect(unreadable.status()).toBe(400);
  expect((await unreadable.json()).error).toMatch(/^not dd output/);
  const viewer = await apiTokenFor("viewer");
  expect((await request.post("/api/runs/import/preview", { headers: bearer(viewer), data: { probe: "dd", output: session } })).status()).toBe(403);
});
