// The CLI bundle `npm run build:cli` leaves in dist/cli/ (scripts/build-cli.ts), for
// GET /api/cli/probebook.cjs. Found from the working directory, as the agent's files are.
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { AppError } from "../../http/app-error";

export const cliBundlePath = () => path.resolve(process.cwd(), "dist", "cli", "probebook.cjs");

/** The bundle's text and SHA-256; NOT_FOUND naming the build command when it was never built. */
export async function getCliBundle(file = cliBundlePath()): Promise<{ text: string; sha256: string }> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch {
    throw new AppError("NOT_FOUND", "The CLI is not built on this server yet: run `npm run build:cli` on the server (it writes dist/cli/probebook.cjs).");
  }
  return { text: bytes.toString("utf8"), sha256: createHash("sha256").update(bytes).digest("hex") };
}
