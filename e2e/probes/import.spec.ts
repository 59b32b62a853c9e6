import path from "node:path";
import { expect, test } from "../fixtures";
import { apiTokenFor, bearer, signInAs } from "../helpers";

const fixture = path.join(__dirname, "iozone-auto-64m.txt");

test("an operator imports an iozone file through the UI and sees its numbers", async ({ page }) => {
  await signInAs(page, "operator");
  await page.goto("/import");
  await page.getByLabel("Tool").selectOption("iozone");
  await page.getByLabel("Machine it ran on").fill("lab-vm · virtio · ext4");
  await page.getByLabel("Output file").setInputFiles(fixture);
  await page.getByRole("button", { name: "Import" }).click();
  await expect(page).toHaveURL(/\/runs\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId("run-status")).toHaveText("succeeded");
  await expect(page.getByTestId("run-format")).toHaveText("Read as iozone auto table");
  await page.getByText("All measurements").click();
  const table = page.getByTestId("measurements");
  // 64 MiB file, 4 KiB records, write: the first cell of the fixture's table (1527924 kB/s),
  // shown like every throughput in MiB/s (÷ 1024).
  await expect(table.getByRole("row").filter({ hasText: "1,492.113" }).first()).toContainText("write");
  await expect(table.getByRole("row").filter({ hasText: "1,492.113" }).first()).toContainText("MiB/s");
  await expect(page.getByTestId("result-chart").first()).toBeVisible();
});

test("output that is not the chosen tool's is refused with the parser's message", async ({ page }) => {
  await signInAs(page, "operator");
  await page.goto("/import");
  await page.getByLabel("Tool").selectOption("fio");
  await page.getByLabel("Machine it ran on").fill("nowhere");
  await page.getByLabel("Output (paste here or choose a file above)").fill("this is not fio output");
  await page.getByRole("button", { name: "Import" }).click();
  await expect(page.getByTestId("import-error")).toContainText("not fio JSON output");
  await expect(page).toHaveURL(/\/import$/);
});

test("POST /api/runs/import stores a run with a token and refuses viewers and bad bodies", async ({ request }) => {
  const operator = await apiTokenFor("operator");
  const ok = await request.post("/api/runs/import", {
    headers: bearer(operator),
    data: { probe: "dd", output: "268435456 bytes (268 MB, 256 MiB) copied, 1.25 s, 215 MB/s\n", hostLabel: "laptop" },
  });
  expect(ok.status()).toBe(201);
  const { id, format } = (await ok.json()) as { id: string; format: string };
  expect(format).toBe("coreutils dd");
  const run = await (await request.get(`/api/runs/${id}`, { headers: bearer(operator) })).json();
  expect(run.origin).toBe("IMPORTED");
  expect(run.status).toBe("SUCCEEDED");
  const bytes = run.result.measurements.find((m: { metric: string }) => m.metric === "bytes");
  expect(bytes.value).toBe(268435456);
  const log = await request.get(`/api/runs/${id}/log`, { headers: bearer(operator) });
  expect(await log.text()).toContain("215 MB/s");

  const busybox = await request.post("/api/runs/import", {
    headers: bearer(operator),
    data: { probe: "dd", output: "100+0 records in\n100+0 records out\n104857600 bytes (100.0MB) copied, 0.036343 seconds, 2.7GB/s\n", hostLabel: "router" },
  });
  expect(busybox.status()).toBe(201);
  expect((await busybox.json()).format).toBe("busybox dd");

  const bad = await request.post("/api/runs/import", { headers: bearer(operator), data: { probe: "sar", output: "garbage", hostLabel: "x" } });
  expect(bad.status()).toBe(400);
  expect((await bad.json()).error).toMatch(/not sar output/);

  const viewer = await apiTokenFor("viewer");
  const forbidden = await request.post("/api/runs/import", { headers: bearer(viewer), data: { probe: "dd", output: "x", hostLabel: "x" } });
  expect(forbidden.status()).toBe(403);
  const anonymous = await request.post("/api/runs/import", { data: { probe: "dd", output: "x", hostLabel: "x" } });
  expect(anonymous.status()).toBe(401);
});
