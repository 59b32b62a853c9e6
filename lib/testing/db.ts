import { inject } from "vitest";

/** Points this test file's Prisma client at the run's fresh database (see vitest-global-setup). */
export function connectTestDatabase(): string {
  const url = inject("databaseUrl");
  process.env.DATABASE_URL = url;
  return url;
}
