import type { PrismaClient } from "@prisma/client";
import { generateSecret, hashSecret } from "../../auth/secret-token";
import { db } from "../../db";
import { AppError } from "../../http/app-error";

/** Creates an API token for a user; the token is returned once and only its hash is stored. `client` is the app's by default, the admin CLI passes its own. */
export async function createApiToken(
  input: { userId?: string; email?: string; name: string },
  client: PrismaClient = db(),
): Promise<{ id: string; name: string; token: string }> {
  const name = input.name.trim();
  if (!name || name.length > 100) throw new AppError("BAD_REQUEST", "A token needs a name of 1 to 100 characters.");
  const user = await client.user.findUnique({
    where: input.userId ? { id: input.userId } : { email: (input.email ?? "").trim().toLowerCase() },
    select: { id: true },
  });
  if (!user) throw new AppError("NOT_FOUND", `No user ${input.email ?? input.userId ?? ""}: create it first with \`npm run admin -- user create\`.`);
  const token = generateSecret("pbt");
  const row = await client.apiToken.create({
    data: { userId: user.id, name, tokenHash: hashSecret(token), prefix: token.slice(0, 10) },
    select: { id: true, name: true },
  });
  return { ...row, token };
}
