import { retentionSettingsSchema, type RetentionSettings } from "../../api/schemas/webhooks";
import { db } from "../../db";

export const RETENTION_KEY = "retention";

/** Keep raw logs forever until an admin says otherwise. */
export const DEFAULT_RETENTION: RetentionSettings = { rawLogDays: null };

/**
 * The retention setting (app_settings "retention"). A stored value this version cannot read falls
 * back to the default, which keeps everything: pruning on a guess would lose data for good.
 */
export async function getRetention(): Promise<RetentionSettings> {
  const row = await db().appSetting.findUnique({ where: { key: RETENTION_KEY }, select: { value: true } });
  const parsed = retentionSettingsSchema.safeParse(row?.value);
  return parsed.success ? parsed.data : DEFAULT_RETENTION;
}
