import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@prisma/client";
import { resolveDatabaseUrlForTools } from "./runtime/database-url-file";

function createClient(): PrismaClient {
  // Live streams and agent uploads each hold a connection briefly; 20 per instance keeps them from queueing.
  const adapter = new PrismaPg({ connectionString: resolveDatabaseUrlForTools(), max: Number(process.env.PROBEBOOK_DB_POOL) || 20 });
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
