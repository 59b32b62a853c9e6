import { expect, test } from "../fixtures";
import { apiTokenFor, bearer } from "../helpers";

// The document says 413 for output beyond the import's size limit; the handler answers it (it
// used to be a 400). The suite's fixture also holds the answer to the document.
test("an import whose output is over 16 MiB answers 413 naming the field, as documented", async ({ request }) => {
  const token = await apiTokenFor("operator");
  const r = await request.post("/api/runs/import", {
    headers: bearer(token),
    data: { probe: "dd", output: "x".repeat(16 * 1024 * 1024 + 1), hostLabel: "too-big" },
  });
  expect(r.status()).toBe(413);
  const body = (await r.json()) as { error: string; fieldErrors: Record<string, string[]> };
  expect(body.fieldErrors.output?.[0]).toMatch(/The output is larger than the import's limit of 16 MiB \(16,777,216 bytes\)/);
});

test("the served document declares the operations' standard answers", async ({ request }) => {
  const doc = (await (await request.get("/api/openapi.json")).json()) as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
  expect(Object.keys(doc.paths["/api/runs/import"]!.post!.responses)).toEqual(expect.arrayContaining(["201", "400", "401", "403", "413", "503"]));
  expect(Object.keys(doc.paths["/api/agent/heartbeat"]!.post!.responses)).toEqual(expect.arrayContaining(["200", "400", "401", "413", "429", "503"]));
});
