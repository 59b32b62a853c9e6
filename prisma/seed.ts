import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@prisma/client";

export interface SeedReport {
  users: number;
}

/** Idempotent start-up seed. Runs on every `npm start`; it must never duplicate rows. */
export async function seedDatabase(databaseUrl: string): Promise<SeedReport> {
  const client = new PrismaClient({ adapter: new PrismaPg({ connectionString: databaseUrl }) });
  try {
    const users = await client.user.count();
    return { users };
  } finally {
    await client.$disconnect();
  }
}
