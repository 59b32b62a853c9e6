import type { PrismaClient, Role } from "@prisma/client";
import { z } from "zod";
import { hashPassword } from "../../auth/password";
import { db } from "../../db";
import { AppError } from "../../http/app-error";

export const newUserSchema = z.object({
  email: z.string().trim().toLowerCase().max(254, "Email must be at most 254 characters.").email("Enter a valid email address."),
  password: z.string().min(8, "Passwords need at least 8 characters.").max(1024, "Password must be at most 1024 characters."),
  role: z.enum(["VIEWER", "OPERATOR", "ADMIN"]),
});

/** Creates a user; `client` is the app's by default, the admin CLI passes its own. */
export async function createUser(
  input: { email: string; password: string; role: Role },
  client: PrismaClient = db(),
): Promise<{ id: string; email: string; role: Role }> {
  const parsed = newUserSchema.safeParse(input);
  if (!parsed.success) {
    throw new AppError("BAD_REQUEST", parsed.error.issues.map((i) => i.message).join(" "));
  }
  const { email, password, role } = parsed.data;
  const existing = await client.user.findUnique({ where: { email }, select: { id: true } });
  if (existing) throw new AppError("CONFLICT", `A user with the email ${email} already exists.`);
  const passwordHash = await hashPassword(password);
  try {
    return await client.user.create({ data: { email, passwordHash, role }, select: { id: true, email: true, role: true } });
  } catch (err) {
    // Two creations racing for one email: the unique index decides.
    if (err instanceof Error && /Unique constraint/i.test(err.message)) {
      throw new AppError("CONFLICT", `A user with the email ${email} already exists.`);
    }
    throw err;
  }
}
