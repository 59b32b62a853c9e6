import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@prisma/client";
import { resolveDatabaseUrlForTools } from "./runtime/database-url-file";

function createClient(): PrismaClient {
  const adapter = new PrismaPg({ connectionString: resolveDatabaseUrlForTools(), max: 10 });
  return new PrismaClient({ adapter });
}

const globalForPrisma = globalThis as unknown as { prisma?: PrismaClient };

/**
 * The one Prisma client. Created on first use (not at import) so that pages can be built
 * without a database, and cached on globalThis so dev-mode reloads do not leak pools.
 */
export function db(): PrismaClient {
  globalForPrisma.prisma ??= createClient();
  return globalForPrisma.prisma;
}
