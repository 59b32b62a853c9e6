import { db } from "../../db";

const KEY = "server-url";

/**
 * The server's address for links in webhook payloads, which are sent with no request at hand:
 * PUBLIC_URL when set, else the address an admin last reached the webhooks API at (remembered by
 * rememberServerUrl), else null (payloads then carry the path alone).
 */
export async function publicBaseUrl(): Promise<string | null> {
  if (process.env.PUBLIC_URL) return process.env.PUBLIC_URL.replace(/\/+$/, "");
  const row = await db().appSetting.findUnique({ where: { key: KEY }, select: { value: true } });
  return typeof row?.value === "string" ? row.value : null;
}

/** Keeps the address the admin's browser used (lib/server/hosts/server-url.ts), for publicBaseUrl. */
export async function rememberServerUrl(url: string): Promise<void> {
  if (process.env.PUBLIC_URL || !/^https?:\/\/[^/]+$/.test(url)) return;
  await db().appSetting.upsert({ where: { key: KEY }, create: { key: KEY, value: url }, update: { value: url } });
}
