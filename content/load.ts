/**
 * Content loaders for the knowledge base: guides (content/guides/*.mdx with
 * YAML frontmatter) and datasets (content/data/*.json).
 *
 * Invalid content throws a ContentError naming the file and the zod issues.
 */
import fs from "node:fs";
import path from "node:path";
import matter from "gray-matter";
import { formatIssues, guideFrontmatterSchema, SLUG_PATTERN, type GuideFrontmatter } from "./schema";
import { ContentError, contentDir } from "./datasets";

export { ContentError, getDataset, listDatasets, parseDataset } from "./datasets";

export interface Guide {
  slug: string;
  frontmatter: GuideFrontmatter;
  /** MDX body without the frontmatter block. */
  body: string;
}

export function guidesDir(): string {
  return path.join(contentDir(), "guides");
}

/** Parses and validates one guide file's text; `file` is only used in error messages. */
export function parseGuide(raw: string, file: string): Guide {
  let parsed: { data: Record<string, unknown>; content: string };
  try {
    parsed = matter(raw);
  } catch (err) {
    throw new ContentError(`Invalid frontmatter YAML in guide ${file}: ${(err as Error).message}`, file);
  }
  const result = guideFrontmatterSchema.safeParse(parsed.data);
  if (!result.success) {
    throw new ContentError(`Invalid frontmatter in guide ${file}:\n${formatIssues(result.error)}`, file);
  }
  const slug = path.basename(file, ".mdx");
  if (!SLUG_PATTERN.test(slug)) {
    throw new ContentError(`Invalid guide file name ${file}: the slug must be kebab-case`, file);
  }
  return { slug, frontmatter: result.data, body: parsed.content };
}

function readGuideFile(file: string): Guide {
  return parseGuide(fs.readFileSync(file, "utf8"), file);
}

/** All guides, sorted by frontmatter `order`, then slug. */
export function listGuides(): Guide[] {
  const dir = guidesDir();
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".mdx"))
    .map((f) => readGuideFile(path.join(dir, f)))
    .sort((a, b) => a.frontmatter.order - b.frontmatter.order || a.slug.localeCompare(b.slug));
}

/** One guide by slug, or null when there is no such file. */
export function getGuide(slug: string): Guide | null {
  if (!SLUG_PATTERN.test(slug)) return null;
  const file = path.join(guidesDir(), `${slug}.mdx`);
  if (!fs.existsSync(file)) return null;
  return readGuideFile(file);
}
