import type { PrismaClient } from "@prisma/client";
import { z } from "zod";
import { generateSecret, hashSecret } from "../../auth/secret-token";
import { db } from "../../db";
import { AppError } from "../../http/app-error";

/** Optional lifetime of an API token in whole days (absent: it never expires). */
export const expiresInDaysSchema = z.coerce
  .number({ error: "The expiry must be a number of days." })
  .int("The expiry must be a whole number of days.")
  .min(1, "A token lives at least 1 day.")
  .max(3650, "A token lives at most 3650 days.")
  .optional();

/** Creates an API token for a user; the token is returned once and only its hash is stored. `client` is the app's by default, the admin CLI passes its own. */
export async function createApiToken(
  input: { userId?: string; email?: string; name: string; expiresInDays?: number },
  client: PrismaClient = db(),
): Promise<{ id: string; name: string; token: string; expiresAt: Date | null }> {
  const name = input.name.trim();
  if (!name || name.length > 100) throw new AppError("BAD_REQUEST", "A token needs a name of 1 to 100 characters.");
  const days = expiresInDaysSchema.safeParse(input.expiresInDays);
  if (!days.success) throw new AppError("BAD_REQUEST", days.error.issues.map((i) => i.message).join(" "));
  const user = await client.user.findUnique({
    where: input.userId ? { id: input.userId } : { email: (input.email ?? "").trim().toLowerCase() },
    select: { id: true },
  });
  if (!user) throw new AppError("NOT_FOUND", `No user ${input.email ?? input.userId ?? ""}: create it first with \`npm run admin -- user create\`.`);
  const token = generateSecret("pbt");
  const expiresAt = days.data ? new Date(Date.now() + days.data * 24 * 60 * 60 * 1000) : null;
  const row = await client.apiToken.create({
    data: { userId: user.id, name, tokenHash: hashSecret(token), prefix: token.slice(0, 10), expiresAt },
    select: { id: true, name: true, expiresAt: true },
  });
  return { ...row, token };
}
