// A client generated from the document by openapi-typescript compiles against typical use
// (e2e/client/runs-tour.ts: list, launch, read, export, cancel) without casts.
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { generatedTypes, TYPES_FILE } from "../../e2e/client/generate-types";

const root = path.resolve(__dirname, "..", "..");

describe("types generated from the OpenAPI document", () => {
  it("type the runs a client reads, ids included", async () => {
    const text = await generatedTypes();
    expect(text).toMatch(/Run: \{[^}]*?\n\s+id: string;/);
    expect(text).toContain('"text/csv": string;');
    fs.writeFileSync(TYPES_FILE, text);
  });

  it("compile the typed client script with tsc", async () => {
    if (!fs.existsSync(TYPES_FILE)) fs.writeFileSync(TYPES_FILE, await generatedTypes());
    const tsc = path.join(root, "node_modules", "typescript", "bin", "tsc");
    const { stdout } = await promisify(execFile)(process.execPath, [tsc, "--noEmit", "-p", path.join(root, "e2e", "client", "tsconfig.json")], { cwd: root }).catch(
      (e: { stdout?: string }) => ({ stdout: `tsc failed:\n${e.stdout ?? ""}` }),
    );
    expect(stdout).toBe("");
  }, 120_000);
});
