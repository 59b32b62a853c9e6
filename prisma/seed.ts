import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient, type Prisma } from "@prisma/client";
import { listDatasets } from "../content/datasets";
import { referenceRunsFromDatasets } from "../lib/server/reference/reference-runs";

export interface SeedReport {
  users: number;
  referenceRuns: number;
}

/**
 * Idempotent start-up seed: the guides' published measurements as REFERENCE runs (upserted by
 * a stable id, so editing a dataset updates its runs and nothing is duplicated).
 */
export async function seedDatabase(databaseUrl: string): Promise<SeedReport> {
  const client = new PrismaClient({ adapter: new PrismaPg({ connectionString: databaseUrl }) });
  try {
    const refs = referenceRunsFromDatasets(listDatasets());
    for (const r of refs) {
      const data = {
        probe: r.probe,
        hostLabel: r.hostLabel,
        notes: r.notes,
        origin: "REFERENCE" as const,
        status: "SUCCEEDED" as const,
        params: r.params as Prisma.InputJsonValue,
        profile: r.profile as Prisma.InputJsonValue,
        result: r.result as unknown as Prisma.InputJsonValue,
        warnings: [],
        fsType: r.fsType,
        medium: r.medium,
        createdAt: new Date("2009-01-01T00:00:00Z"),
      };
      await client.probeRun.upsert({ where: { id: r.id }, create: { id: r.id, ...data }, update: data });
    }
    return { users: await client.user.count(), referenceRuns: refs.length };
  } finally {
    await client.$disconnect();
  }
}
