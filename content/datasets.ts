/**
 * Dataset loading (content/data/*.json). Kept free of any frontmatter/MDX
 * dependency so dataset checks can run on their own; `load.ts` re-exports it.
 */
import fs from "node:fs";
import path from "node:path";
import { datasetSchema, formatIssues, SLUG_PATTERN, type Dataset } from "./schema";

export class ContentError extends Error {
  constructor(
    message: string,
    readonly file: string,
  ) {
    super(message);
    this.name = "ContentError";
  }
}

export function contentDir(): string {
  return path.join(process.cwd(), "content");
}

export function dataDir(): string {
  return path.join(contentDir(), "data");
}

/** Parses and validates one dataset; `file` is only used in error messages. */
export function parseDataset(raw: string, file: string): Dataset {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (err) {
    throw new ContentError(`Invalid JSON in dataset ${file}: ${(err as Error).message}`, file);
  }
  const result = datasetSchema.safeParse(json);
  if (!result.success) {
    throw new ContentError(`Invalid dataset ${file}:\n${formatIssues(result.error)}`, file);
  }
  const expectedId = path.basename(file, ".json");
  if (result.data.id !== expectedId) {
    throw new ContentError(
      `Invalid dataset ${file}:\n  - id: "${result.data.id}" does not match the file name "${expectedId}"`,
      file,
    );
  }
  return result.data;
}

function readDatasetFile(file: string): Dataset {
  return parseDataset(fs.readFileSync(file, "utf8"), file);
}

/** All datasets, sorted by id. Throws a ContentError naming the file on the first invalid one. */
export function listDatasets(): Dataset[] {
  const dir = dataDir();
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => readDatasetFile(path.join(dir, f)));
}

/** One dataset by id, or null when there is no such file. */
export function getDataset(id: string): Dataset | null {
  if (!SLUG_PATTERN.test(id)) return null;
  const file = path.join(dataDir(), `${id}.json`);
  if (!fs.existsSync(file)) return null;
  return readDatasetFile(file);
}
