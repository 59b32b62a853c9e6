import path from "node:path";

/** The repository root (this file lives in lib/runtime/). */
export const projectRoot = path.resolve(__dirname, "..", "..");

/** Where Probebook keeps local state: the embedded database, the local agent, scratch dirs. */
export function dataDir(): string {
  const fromEnv = process.env.PROBEBOOK_DATA_DIR;
  return fromEnv ? path.resolve(fromEnv) : path.join(projectRoot, ".data");
}
