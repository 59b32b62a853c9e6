import type { TestProject } from "vitest/node";
import { createTestDatabase, type TestDatabase } from "../runtime/test-database";

let db: TestDatabase | null = null;

/** One fresh PostgreSQL database per `vitest run`, created and dropped here. */
export async function setup(project: TestProject) {
  db = await createTestDatabase("unit");
  project.provide("databaseUrl", db.url);
}

export async function teardown() {
  await db?.dispose();
}

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
  }
}
