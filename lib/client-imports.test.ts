// No probe parser in a browser bundle, checked on the source: every module a "use client" file
// reaches through value imports (type-only imports are erased) is walked, and none may be a
// probe's parser or the full catalog that brings them all. The production build is checked too,
// on its real chunks (e2e/foundation/client-bundles.spec.ts, bench/page-js.ts); this test says
// which import chain brought a parser in, without a build.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");

/** Modules a browser must not load: the catalog (every parser), a probe's definition, guardParse, its parsers. */
const FORBIDDEN: { re: RegExp; why: string }[] = [
  { re: /^probes\/catalog\.ts$/, why: "the full catalog brings every probe's parser: use probes/live-catalog.ts" },
  { re: /^probes\/core\/probe\.ts$/, why: "the probe definition module brings guardParse: import progress helpers from probes/core/progress.ts" },
  { re: /^probes\/(?!core\/)[^/]+\/probe\.ts$/, why: "a probe's definition brings its parser" },
  { re: /^probes\/[^/]+\/parse[^/]*\.ts$/, why: "a probe parser" },
];

/**
 * Readers the live view needs by name. fio writes its per-second logs only when it exits, and the
 * agent appends them to the output; the live timeline draws them from there (70 lines, no
 * report parsing), as it did before the stored result exists.
 */
const ALLOWED = new Set(["probes/fio/parse-logs.ts"]);

const SOURCE_DIRS = ["app", "components", "lib", "probes"];

function listSources(base: string): string[] {
  return SOURCE_DIRS.flatMap((d) => {
    const dir = path.join(base, d);
    if (!fs.existsSync(dir)) return [];
    return fs
      .readdirSync(dir, { recursive: true, encoding: "utf8" })
      .filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f))
      .map((f) => path.join(dir, f));
  });
}

function resolveImport(base: string, from: string, spec: string): string | null {
  const target = spec.startsWith("@/") ? path.join(base, spec.slice(2)) : spec.startsWith(".") ? path.resolve(path.dirname(from), spec) : null;
  if (!target) return null;
  for (const ext of ["", ".ts", ".tsx", "/index.ts", "/index.tsx"]) {
    const f = target + ext;
    if (fs.existsSync(f) && fs.statSync(f).isFile()) return f;
  }
  return null;
}

/** Value imports and re-exports of a module (`import type`, `export type` and all-type braces skipped). */
function valueImports(source: string): string[] {
  const out: string[] = [];
  const re = /^\s*(?:import|export)\s+(type\s+)?([^;]*?)\s*from\s+["']([^"']+)["']|^\s*import\s+["']([^"']+)["']/gm;
  for (const m of source.matchAll(re)) {
    if (m[4]) {
      out.push(m[4]);
      continue;
    }
    if (m[1]) continue;
    const clause = m[2] ?? "";
    const braces = /^\{([^}]*)\}$/.exec(clause.trim());
    if (braces && braces[1]!.split(",").every((n) => n.trim() === "" || /^type\s/.test(n.trim()))) continue;
    out.push(m[3]!);
  }
  return out;
}

export interface Violation {
  client: string;
  chain: string[];
  why: string;
}

/** Every forbidden module a client component reaches, with the chain of imports that reaches it. */
export function clientViolations(base: string): Violation[] {
  const rel = (f: string) => path.relative(base, f).split(path.sep).join("/");
  const clients = listSources(base).filter((f) => /^\s*["']use client["']/.test(fs.readFileSync(f, "utf8")));
  const out: Violation[] = [];
  for (const client of clients) {
    const seen = new Map<string, string | null>([[client, null]]);
    const queue = [client];
    while (queue.length > 0) {
      const file = queue.shift()!;
      const bad = ALLOWED.has(rel(file)) ? undefined : FORBIDDEN.find((x) => x.re.test(rel(file)));
      if (bad) {
        const chain: string[] = [];
        for (let f: string | null = file; f; f = seen.get(f) ?? null) chain.unshift(rel(f));
        out.push({ client: rel(client), chain, why: bad.why });
        continue;
      }
      for (const spec of valueImports(fs.readFileSync(file, "utf8"))) {
        const next = resolveImport(base, file, spec);
        if (next && !seen.has(next)) {
          seen.set(next, file);
          queue.push(next);
        }
      }
    }
  }
  return out;
}

describe("client components and probe parsers", () => {
  it("no client component reaches a probe parser or the full catalog", () => {
    const found = clientViolations(root).map((v) => `${v.chain.join(" → ")} (${v.why})`);
    expect(found).toEqual([]);
  });

  it("finds one when a client component imports the catalog, directly or through a module, and not through a type import", () => {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), "pb-client-imports-"));
    const put = (file: string, text: string) => {
      fs.mkdirSync(path.dirname(path.join(base, file)), { recursive: true });
      fs.writeFileSync(path.join(base, file), text);
    };
    try {
      put("probes/catalog.ts", 'import { parseDd } from "./dd/parse";\nexport const getProbe = () => parseDd;\n');
      put("probes/dd/parse.ts", "export const parseDd = () => null;\n");
      put("probes/live-catalog.ts", 'import type { ProbeId } from "./catalog";\nexport const ids: ProbeId[] = [];\n');
      put("lib/helper.ts", 'export { getProbe } from "../probes/catalog";\n');
      put("components/a.tsx", '"use client";\nimport { getProbe } from "@/probes/catalog";\nexport const A = getProbe;\n');
      put("components/b.tsx", '"use client";\n\nimport { getProbe } from "../lib/helper";\nexport const B = getProbe;\n');
      put("components/c.tsx", '"use client";\nimport { ids } from "@/probes/live-catalog";\nimport { type X } from "@/probes/catalog";\nexport const C: X | typeof ids = ids;\n');
      put("components/server.tsx", 'import { getProbe } from "@/probes/catalog";\nexport const S = getProbe;\n');
      const found = clientViolations(base).map((v) => v.chain.join(" → "));
      expect(found.sort()).toEqual(["components/a.tsx → probes/catalog.ts", "components/b.tsx → lib/helper.ts → probes/catalog.ts"]);
    } finally {
      fs.rmSync(base, { recursive: true, force: true });
    }
  });
});
