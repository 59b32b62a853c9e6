// The architecture's floors are lint rules (eslint.config.mjs); this runs ESLint itself on code
// placed at virtual paths to show that a forbidden import fails and a permitted one passes.
import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");
const eslint = new ESLint({ cwd: root });

/** The no-restricted-imports messages ESLint reports for `code` as if it lived at `file`. */
async function floorErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result!.messages.filter((m) => m.ruleId === "no-restricted-imports" && m.severity === 2).map((m) => m.message);
}

describe("lint floors", () => {
  it("fails when probes/ imports next, Prisma or lib/ (alias or relative)", async () => {
    const file = "probes/floor-check/example.ts";
    for (const spec of ["next/headers", "next", "@prisma/client", "../../lib/db", "../../lib/http/app-error", "@/lib/server/runs/get-run", "../../app/layout"]) {
      const errors = await floorErrors(file, `import * as forbidden from "${spec}";\nexport default forbidden;\n`);
      expect(errors, spec).toHaveLength(1);
      expect(errors[0]).toMatch(/probes\/ (runs outside Next|must not import)/);
    }
    expect(await floorErrors(file, `export type { PrismaClient } from "@prisma/client";\n`)).toHaveLength(1);
  }, 60_000);

  it("lets probes/ import probes, zod and Node", async () => {
    const code = `import { z } from "zod";\nimport os from "node:os";\nimport { getProbe } from "../catalog";\nimport type { HostProfile } from "../profile/types";\nexport const x: [unknown, unknown, unknown, HostProfile | null] = [z, os, getProbe, null];\n`;
    expect(await floorErrors("probes/floor-check/example.ts", code)).toEqual([]);
  });

  it("fails when a page, route or component imports the database client", async () => {
    for (const [file, spec] of [
      ["app/floor-check/page.tsx", "@/lib/db"],
      ["app/api/floor-check/route.ts", "@/lib/pg-pool"],
      ["components/floor-check.tsx", "../lib/db"],
    ] as const) {
      const errors = await floorErrors(file, `import * as forbidden from "${spec}";\nexport default forbidden;\n`);
      expect(errors, `${file} → ${spec}`).toHaveLength(1);
      expect(errors[0]).toMatch(/lib\/server\/<domain>\/<verb-noun>\.ts/);
    }
  });

  it("fails when a page, route or component imports the instance's machinery", async () => {
    for (const [file, spec] of [
      ["app/floor-check/page.tsx", "@/lib/instance/instance"],
      ["app/api/floor-check/route.ts", "../../../lib/instance/pg-listener"],
      ["components/floor-check.tsx", "../lib/instance/parse/parse-off-thread"],
      ["components/run/floor-check.tsx", "@/lib/instance"],
    ] as const) {
      const errors = await floorErrors(file, `import * as forbidden from "${spec}";\nexport default forbidden;\n`);
      expect(errors, `${file} → ${spec}`).toHaveLength(1);
      expect(errors[0]).toMatch(/lib\/instance\/ is the app instance's machinery/);
    }
  });

  it("fails when lib/instance imports a use case, a page or a component", async () => {
    for (const [file, spec] of [
      ["lib/instance/floor-check.ts", "../server/runs/mark-lost"],
      ["lib/instance/parse/floor-check.ts", "../../server/runs/get-run"],
      ["lib/instance/floor-check.ts", "@/lib/server/agent/claim-job"],
      ["lib/instance/floor-check.ts", "../../app/layout"],
      ["lib/instance/floor-check.ts", "@/components/site-header"],
    ] as const) {
      const errors = await floorErrors(file, `import * as forbidden from "${spec}";\nexport default forbidden;\n`);
      expect(errors, `${file} → ${spec}`).toHaveLength(1);
      expect(errors[0]).toMatch(/lib\/instance\/ must not import lib\/server\//);
    }
    // What the machinery does use: the pool, the runtime, probes.
    const code = `import { pgPool } from "../pg-pool";\nimport { resolveDatabaseUrlForTools } from "../runtime/database-url-file";\nimport type { NormalisedResult } from "../../probes/core/types";\nexport const x: [unknown, unknown, NormalisedResult | null] = [pgPool, resolveDatabaseUrlForTools, null];\n`;
    expect(await floorErrors("lib/instance/floor-check.ts", code)).toEqual([]);
  });

  it("lets pages read through lib/server use cases", async () => {
    // lib/db-errors only starts like the client: the floor names lib/db and lib/pg-pool exactly.
    const code = `import { getRun } from "@/lib/server/runs/get-run";\nimport { dbErrorMessage } from "@/lib/db-errors";\nexport const x = [getRun, dbErrorMessage];\n`;
    expect(await floorErrors("app/floor-check/page.tsx", code)).toEqual([]);
  });

  it("fails when a component imports app/ (a form takes its server action as a prop)", async () => {
    for (const spec of ["@/app/hosts/actions", "../app/sign-in/actions", "../../app/layout"]) {
      const errors = await floorErrors("components/floor-check/form.tsx", `import * as forbidden from "${spec}";\nexport default forbidden;\n`);
      expect(errors, spec).toHaveLength(1);
      expect(errors[0]).toMatch(/components\/ must not import app\//);
    }
  });

  it("fails when the API's declarations or the HTTP plumbing import a use case", async () => {
    for (const [file, spec] of [
      ["lib/api/floor-check.ts", "../server/runs/create-run"],
      ["lib/api/schemas/floor-check.ts", "../../server/runs/get-run"],
      ["lib/http/floor-check.ts", "@/lib/server/runs/get-run"],
    ] as const) {
      const errors = await floorErrors(file, `import * as forbidden from "${spec}";\nexport default forbidden;\n`);
      expect(errors, `${file} → ${spec}`).toHaveLength(1);
      expect(errors[0]).toMatch(/must not import lib\/server/);
    }
    const allowed = `import { z } from "zod";\nimport { TOOL_IDS } from "../../probes/catalog";\nimport { uuidSchema } from "../http/params";\nexport const x = [z, TOOL_IDS, uuidSchema];\n`;
    expect(await floorErrors("lib/api/floor-check.ts", allowed)).toEqual([]);
  });
});
