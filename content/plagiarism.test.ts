/**
 * Guards against copied prose: no run of 12 consecutive words from the source
 * articles (../shared/seeds/*.txt relative to the repo root) may appear in any
 * file under content/.
 *
 * Normalisation: lower-case, split on anything that is not a Unicode letter or
 * digit, drop empty tokens. All seed files are shingled; the Chinese passages
 * cannot collide with English text, so this covers the English-language seeds
 * (and the commands quoted in all of them).
 *
 * One exception: a line inside a fenced code block of a guide that is, verbatim, a command the
 * source prints after a shell prompt ("$ piston import …"). Commands carry over as facts and
 * must be quoted exactly; prose in a code block is still checked.
 *
 * Independent of gray-matter.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const WINDOW = 12;
const SEEDS_DIR = path.resolve(process.cwd(), "..", "shared", "seeds");
const CONTENT_DIR = path.join(process.cwd(), "content");
const TEXT_EXTENSIONS = new Set([".mdx", ".md", ".json", ".ts", ".tsx", ".yaml", ".yml", ".txt"]);

function tokenize(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t.length > 0);
}

function shingles(tokens: string[], n = WINDOW): Set<string> {
  const out = new Set<string>();
  for (let i = 0; i + n <= tokens.length; i++) out.add(tokens.slice(i, i + n).join(" "));
  return out;
}

function walk(dir: string): string[] {
  const files: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) files.push(...walk(full));
    else if (TEXT_EXTENSIONS.has(path.extname(entry.name))) files.push(full);
  }
  return files.sort();
}

/** Commands the seeds print after a "$ " prompt, trimmed. */
function promptedCommands(seedTexts: string[]): Set<string> {
  const out = new Set<string>();
  for (const text of seedTexts) {
    for (const m of text.matchAll(/^[ \t]*\$[ \t]+(.+?)[ \t]*$/gm)) out.add(m[1]!);
  }
  return out;
}

/** The file's text with code-block lines that quote a prompted seed command replaced by a break. */
function withoutQuotedCommands(text: string, commands: Set<string>): string {
  let inFence = false;
  return text
    .split("\n")
    .map((line) => {
      if (/^\s*```/.test(line)) {
        inFence = !inFence;
        return line;
      }
      return inFence && commands.has(line.trim()) ? "\u0000" : line;
    })
    .join("\n");
}

const seedsAvailable = fs.existsSync(SEEDS_DIR) && fs.readdirSync(SEEDS_DIR).some((f) => f.endsWith(".txt"));

describe("plagiarism guard", () => {
  if (!seedsAvailable) {
    console.warn(`plagiarism guard skipped: source articles not found at ${SEEDS_DIR}`);
    it.skip(`skipped: source articles not found at ${SEEDS_DIR}`, () => {});
    return;
  }

  describe("12-word runs from the source articles", () => {
    const seedFiles = fs.readdirSync(SEEDS_DIR).filter((f) => f.endsWith(".txt")).sort();
    const seedShingles = new Set<string>();
    const seedTexts = seedFiles.map((f) => fs.readFileSync(path.join(SEEDS_DIR, f), "utf8"));
    for (const text of seedTexts) {
      for (const s of shingles(tokenize(text))) seedShingles.add(s);
    }
    const commands = promptedCommands(seedTexts);

    it("reads the seed files", () => {
      expect(seedFiles.length).toBeGreaterThan(0);
      expect(seedShingles.size).toBeGreaterThan(1000);
    });

    it("detects a copied sentence (self-test)", () => {
      // Take a 12-word run straight from the first seed file and embed it in other text.
      const tokens = tokenize(fs.readFileSync(path.join(SEEDS_DIR, seedFiles[0]!), "utf8"));
      const english = tokens.findIndex((_, i) => tokens.slice(i, i + WINDOW).every((t) => /^[a-z]+$/.test(t)));
      expect(english).toBeGreaterThanOrEqual(0);
      const copied = `Intro words. ${tokens.slice(english, english + WINDOW).join(" ")}. Outro.`;
      const hits = [...shingles(tokenize(copied))].filter((s) => seedShingles.has(s));
      expect(hits.length).toBeGreaterThan(0);
    });

    it("exempts only a verbatim prompted command inside a code block", () => {
      const command = [...commands].find((c) => tokenize(c).length >= WINDOW);
      expect(command, "a seed prints a command of 12+ words after a $ prompt").toBeDefined();
      const hits = (text: string) => [...shingles(tokenize(withoutQuotedCommands(text, commands)))].filter((s) => seedShingles.has(s)).length;
      expect(hits(`Intro.\n\n\`\`\`sh\n${command}\n\`\`\`\n`)).toBe(0);
      // The same words as prose, or altered inside the block, still count.
      expect(hits(`Intro. ${command} and more.`)).toBeGreaterThan(0);
      expect(hits(`\`\`\`sh\n${command} --extra\n\`\`\`\n`)).toBeGreaterThan(0);
    });

    it("finds no 12-word run of any seed in content/", () => {
      const offences: string[] = [];
      for (const file of walk(CONTENT_DIR)) {
        const raw = fs.readFileSync(file, "utf8");
        const tokens = tokenize(file.endsWith(".mdx") ? withoutQuotedCommands(raw, commands) : raw);
        let lastHit = -WINDOW;
        for (let i = 0; i + WINDOW <= tokens.length; i++) {
          const run = tokens.slice(i, i + WINDOW).join(" ");
          if (seedShingles.has(run) && i >= lastHit + WINDOW) {
            offences.push(`${path.relative(process.cwd(), file)}: "${run}"`);
            lastHit = i;
          }
        }
      }
      expect(offences, `copied runs:\n${offences.join("\n")}`).toEqual([]);
    });
  });
});
