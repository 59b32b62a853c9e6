import type { Prisma } from "@prisma/client";
import { retentionSettingsSchema, type RetentionSettings } from "../../api/schemas/webhooks";
import { db } from "../../db";
import { RETENTION_KEY } from "./get-retention";

/** Stores the setting (already validated at the boundary) and answers what is now in force. */
export async function updateRetention({ input }: { input: RetentionSettings }): Promise<RetentionSettings> {
  const value = retentionSettingsSchema.parse(input);
  await db().appSetting.upsert({
    where: { key: RETENTION_KEY },
    create: { key: RETENTION_KEY, value: value as Prisma.InputJsonValue },
    update: { value: value as Prisma.InputJsonValue },
  });
  return value;
}
