// The imports' one size limit (MAX_IMPORT_BYTES, bytes of UTF-8) through the real routes on a real
// database: JSON bodies, multipart file uploads, and the 413 that names the field and the limit.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { getRun } from "@/lib/server/runs/get-run";
import { getRunLog } from "@/lib/server/runs/get-run-log";
import { createApiToken } from "@/lib/server/tokens/create-api-token";
import { createUser } from "@/lib/server/users/create-user";
import { connectTestDatabase } from "@/lib/testing/db";
import { MAX_IMPORT_BYTES, utf8Length } from "@/probes/core/limits";
import { POST as importFile } from "./file/route";
import { POST as previewFile } from "./file/preview/route";
import { POST as importJson } from "./route";

connectTestDatabase();

let token = "";
beforeAll(async () => {
  const user = await createUser({ email: `import-route-${crypto.randomUUID().slice(0, 8)}@example.test`, password: "long enough 1", role: "OPERATOR" });
  token = (await createApiToken({ userId: user.id, name: "import route test" })).token;
});

const fioDoc = () => JSON.parse(fs.readFileSync(path.join(__dirname, "../../../../probes/fio/fixtures/fio-3.33-numjobs2.json"), "utf8")) as { jobs: Record<string, Record<string, unknown>>[] };
// No spaces or commas: the parser reads at most 2,000 fields per line (PARSE_LIMITS).
const ACCENTED = "écriture-séquentielle-à-froid—";
/** fio's JSON with an accented job description repeated `times`: real output whose bytes outnumber its characters. */
function accentedFio(times: number): string {
  const doc = fioDoc();
  doc.jobs[0]!["job options"]!.description = ACCENTED.repeat(times);
  return JSON.stringify(doc, null, 2);
}

const auth = () => ({ authorization: `Bearer ${token}` });
async function postJson(body: string, headers: Record<string, string> = {}) {
  const res = await importJson(new Request("http://127.0.0.1/api/runs/import", { method: "POST", headers: { ...auth(), "content-type": "application/json", ...headers }, body }));
  return { status: res.status, json: (await res.json()) as { id?: string; error?: string; fieldErrors?: Record<string, string[]> } };
}
async function postForm(route: typeof importFile, fields: Record<string, string>, file: File | null) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  if (file) form.set("file", file);
  const res = await route(new Request("http://127.0.0.1/api/runs/import/file", { method: "POST", headers: auth(), body: form }));
  return { status: res.status, json: (await res.json()) as { id?: string; summary?: string; error?: string; fieldErrors?: Record<string, string[]> } };
}

describe("POST /api/runs/import: the output's limit in bytes", () => {
  it("accepts 11 MB of accented output (more than 10 MB, fewer than 16 MiB bytes)", async () => {
    const output = accentedFio(330_000);
    expect(utf8Length(output)).toBeGreaterThan(11_000_000);
    expect(utf8Length(output)).toBeLessThan(MAX_IMPORT_BYTES);
    const r = await postJson(JSON.stringify({ probe: "fio", output, hostLabel: "café-01" }));
    expect(r.status, r.json.error).toBe(201);
    expect((await getRun({ id: r.json.id! })).hostName).toBe("café-01");
  }, 60_000);

  it("refuses output whose characters are under the limit but whose UTF-8 bytes are over it, with 413 naming output and the limit", async () => {
    const output = accentedFio(500_000);
    expect(output.length).toBeLessThan(MAX_IMPORT_BYTES);
    expect(utf8Length(output)).toBeGreaterThan(MAX_IMPORT_BYTES);
    const r = await postJson(JSON.stringify({ probe: "fio", output, hostLabel: "lab" }));
    expect(r.status).toBe(413);
    expect(r.json.error).toMatch(/^The output is larger than the import's limit of 16 MiB \(16,777,216 bytes\)/);
    expect(r.json.fieldErrors?.output?.[0]).toBe(r.json.error);
  }, 60_000);

  it("refuses a body declared larger than the limit allows before reading it, naming the output and the limit, never 'must be JSON'", async () => {
    const r = await postJson("{", { "content-length": String(40 * 1024 * 1024) });
    expect(r.status).toBe(413);
    expect(r.json.error).toContain("16 MiB (16,777,216 bytes)");
    expect(r.json.error).toContain("output");
  });

  it("answers an empty output with the field's own message", async () => {
    const r = await postJson(JSON.stringify({ probe: "dd", output: "", hostLabel: "lab" }));
    expect(r.status).toBe(400);
    expect(r.json.error).toBe("Paste or upload the tool's output.");
  });
});

describe("POST /api/runs/import/file: the output as a multipart upload", () => {
  const sar = fs.readFileSync(path.join(__dirname, "../../../../probes/sar/fixtures/sysstat/11.6.5/sar-A.C.txt"), "utf8");

  it("imports a 2 MB sar file, keeping its text as the run's log", async () => {
    const text = sar.repeat(Math.ceil(2_000_000 / sar.length));
    const preview = await postForm(previewFile, { probe: "sar" }, new File([text], "sar-A.txt", { type: "text/plain" }));
    expect(preview.status, preview.json.error).toBe(200);
    expect(preview.json.summary).toBe("1 sar run found");
    const r = await postForm(importFile, { probe: "sar", hostLabel: "db-07", notes: "a day of sar -A" }, new File([text], "sar-A.txt", { type: "text/plain" }));
    expect(r.status, r.json.error).toBe(201);
    expect(await getRun({ id: r.json.id! })).toMatchObject({ origin: "IMPORTED", status: "SUCCEEDED", hostName: "db-07", notes: "a day of sar -A" });
    expect((await getRunLog({ id: r.json.id! })).log).toBe(text);
  }, 120_000);

  it("names an empty file", async () => {
    const r = await postForm(importFile, { probe: "sar", hostLabel: "db-07" }, new File([], "empty.txt"));
    expect(r.status).toBe(400);
    expect(r.json.fieldErrors?.file).toEqual(["The file is empty: choose a file with the tool's output, or paste it."]);
    expect(r.json.error).toBe("The file is empty: choose a file with the tool's output, or paste it.");
  });

  it("refuses a file over the limit with 413 naming the file and the limit", async () => {
    const r = await postForm(importFile, { probe: "sar", hostLabel: "db-07" }, new File([new Uint8Array(MAX_IMPORT_BYTES + 1).fill(0x61)], "big.txt"));
    expect(r.status).toBe(413);
    expect(r.json.error).toMatch(/^The file is larger than the import's limit of 16 MiB \(16,777,216 bytes\)/);
  }, 60_000);

  it("refuses a body that is not a form, saying how to send it", async () => {
    const res = await importFile(new Request("http://127.0.0.1/api/runs/import/file", { method: "POST", headers: { ...auth(), "content-type": "application/json" }, body: "{}" }));
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toMatch(/multipart\/form-data/);
  });
});
