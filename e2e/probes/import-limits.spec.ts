// The import's one limit (16 MiB of UTF-8 bytes, probes/core/limits.ts) as a person meets it: a
// file is judged by its size before it is read, a large one is uploaded as a file rather than put
// in the text box, and the API counts an accented paste in bytes like a file.
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "../fixtures";
import { apiTokenFor, bearer, signInAs } from "../helpers";

const fixtures = path.join(__dirname, "..", "..", "probes");
const sar = readFileSync(path.join(fixtures, "sar", "fixtures", "sysstat", "11.6.5", "sar-A.C.txt"), "utf8");
const LIMIT_WORDS = "16 MiB (16,777,216 bytes)";

/** fio's JSON with an accented job description: real output whose UTF-8 bytes outnumber its characters. */
function accentedFio(times: number): string {
  const doc = JSON.parse(readFileSync(path.join(fixtures, "fio", "fixtures", "fio-3.33-numjobs2.json"), "utf8")) as { jobs: Record<string, Record<string, unknown>>[] };
  doc.jobs[0]!["job options"]!.description = "écriture-séquentielle-à-froid—".repeat(times);
  return JSON.stringify(doc, null, 2);
}

test.beforeEach(async ({ page }) => {
  await signInAs(page, "operator");
  await page.goto("/import");
});

test("the form states the limit, and a 26 MB file is refused by its size at once, never read into the page", async ({ page }) => {
  await expect(page.getByText(`Up to ${LIMIT_WORDS}.`)).toBeVisible();
  await page.getByLabel("Output file").setInputFiles({ name: "sar-month.txt", mimeType: "text/plain", buffer: Buffer.alloc(26_000_000, "a") });
  const started = Date.now();
  await expect(page.getByTestId("import-file-error")).toHaveText(`sar-month.txt is 24.8 MiB. The file is larger than the import's limit of ${LIMIT_WORDS}: import a shorter part of it (one day's report, one run).`, { timeout: 5_000 });
  // The page still answers at once: the field takes typing, the text box stayed empty.
  await page.getByLabel("Machine it ran on").fill("still responsive");
  await expect(page.getByLabel("Machine it ran on")).toHaveValue("still responsive");
  expect(Date.now() - started).toBeLessThan(5_000);
  await expect(page.getByLabel("Output (paste here or choose a file above)")).toHaveValue("");
});

test("an empty file is named as the problem", async ({ page }) => {
  await page.getByLabel("Output file").setInputFiles({ name: "empty.txt", mimeType: "text/plain", buffer: Buffer.alloc(0) });
  await expect(page.getByTestId("import-file-error")).toHaveText("The file is empty: choose a file with the tool's output, or paste it.");
});

test("a 2 MB sar file is uploaded as a file, previewed and imported", async ({ page, request }) => {
  test.setTimeout(180_000);
  const text = sar.repeat(Math.ceil(2_000_000 / sar.length));
  await page.getByLabel("Tool").selectOption("sar");
  await page.getByLabel("Output file").setInputFiles({ name: "db-07-sar-A.txt", mimeType: "text/plain", buffer: Buffer.from(text) });
  await expect(page.getByTestId("import-upload")).toContainText("db-07-sar-A.txt (1.9 MiB) will be uploaded as a file.");
  await expect(page.getByLabel("Output (paste here or choose a file above)")).toHaveValue("");
  await expect(page.getByLabel("Machine it ran on")).toHaveValue("db-07-sar-A");
  await expect(page.getByTestId("import-preview")).toHaveText(/^1 sar run found · read as /, { timeout: 60_000 });
  const upload = page.waitForRequest((r) => r.url().endsWith("/api/runs/import/file") && r.method() === "POST");
  await page.getByRole("button", { name: "Import" }).click();
  expect((await upload).headers()["content-type"]).toMatch(/^multipart\/form-data; boundary=/);
  await expect(page).toHaveURL(/\/runs\/[0-9a-f-]{36}$/, { timeout: 90_000 });
  await expect(page.getByTestId("run-status")).toHaveText("succeeded");
  const id = page.url().split("/").pop()!;
  const operator = await apiTokenFor("operator");
  const log = await request.get(`/api/runs/${id}/log`, { headers: bearer(operator) });
  expect((await log.text()).length).toBe(text.length);
});

test("through the API, an 11 MB accented output is accepted and one over 16 MiB of bytes gets a 413 naming the limit", async ({ request }) => {
  test.setTimeout(180_000);
  const operator = await apiTokenFor("operator");
  const under = accentedFio(330_000);
  expect(Buffer.byteLength(under)).toBeGreaterThan(11_000_000);
  const ok = await request.post("/api/runs/import", { headers: { ...bearer(operator), "content-type": "application/json" }, data: JSON.stringify({ probe: "fio", output: under, hostLabel: "café-01" }), timeout: 120_000 });
  expect(ok.status(), await ok.text()).toBe(201);

  // Fewer characters than the limit, more bytes: counted in bytes, as a file's size is.
  const over = accentedFio(500_000);
  expect(over.length).toBeLessThan(16 * 1024 * 1024);
  const refused = await request.post("/api/runs/import", { headers: { ...bearer(operator), "content-type": "application/json" }, data: JSON.stringify({ probe: "fio", output: over, hostLabel: "café-01" }), timeout: 120_000 });
  expect(refused.status()).toBe(413);
  const body = (await refused.json()) as { error: string; fieldErrors: Record<string, string[]> };
  expect(body.error).toContain(`The output is larger than the import's limit of ${LIMIT_WORDS}`);
  expect(Object.keys(body.fieldErrors)).toEqual(["output"]);
});
