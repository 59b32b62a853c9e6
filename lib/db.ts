import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@prisma/client";
import { pgPool } from "./pg-pool";

function createClient(): PrismaClient {
  // The same pool as the hot paths (lib/pg-pool.ts): an instance opens one pool, not two, and
  // its restart handling covers Prisma's queries too. adapter-pg leaves an external pool open
  // when the client disconnects.
  return new PrismaClient({ adapter: new PrismaPg(pgPool()) });
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
