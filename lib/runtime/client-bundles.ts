// What a production build (`next build`, Turbopack) sends to browsers: the chunks one page loads,
// with their raw and gzipped sizes, and whether any client chunk carries a probe parser. Read
// from the build's own manifests and files, so the figures are the ones a browser downloads.
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { projectRoot } from "./paths";

export interface ChunkSize {
  file: string;
  bytes: number;
  gzipBytes: number;
}

export interface PageJs {
  route: string;
  /** Chunks only this page's client components need (the shared runtime excluded). */
  page: ChunkSize[];
  /** The framework and app runtime every page loads. */
  shared: ChunkSize[];
}

const nextDir = (root: string) => path.join(root, ".next");

function sizeOf(root: string, file: string): ChunkSize {
  const body = fs.readFileSync(path.join(nextDir(root), file));
  return { file, bytes: body.length, gzipBytes: zlib.gzipSync(body, { level: 9 }).length };
}

/**
 * The script chunks a page loads before it is interactive: every chunk its client components are
 * listed in (the page's client reference manifest) plus the root main files. Chunks loaded later
 * by a dynamic import (xterm, when the terminal mounts) are not counted.
 */
export function pageJs(route: string, root = projectRoot): PageJs {
  const manifestFile = path.join(nextDir(root), "server", "app", route, "page_client-reference-manifest.js");
  const text = fs.readFileSync(manifestFile, "utf8");
  // `globalThis.__RSC_MANIFEST["/runs/[id]/page"] = {…};`: the object is JSON, read as such.
  const key = `globalThis.__RSC_MANIFEST[${JSON.stringify(`${route}/page`)}] = `;
  const at = text.indexOf(key);
  if (at < 0) throw new Error(`no client reference manifest for ${route} in ${manifestFile}`);
  const body = text.slice(at + key.length).trim().replace(/;$/, "");
  const manifest = JSON.parse(body) as { clientModules: Record<string, { chunks: string[] }> };
  const build = JSON.parse(fs.readFileSync(path.join(nextDir(root), "build-manifest.json"), "utf8")) as { rootMainFiles: string[] };
  const shared = new Set(build.rootMainFiles.filter((f) => f.endsWith(".js")));
  const listed = new Set<string>();
  for (const m of Object.values(manifest.clientModules)) for (const c of m.chunks) if (c.endsWith(".js")) listed.add(c.replace(/^\/_next\//, ""));
  return {
    route,
    page: [...listed].filter((f) => !shared.has(f)).sort().map((f) => sizeOf(root, f)),
    shared: [...shared].sort().map((f) => sizeOf(root, f)),
  };
}

export const total = (chunks: readonly ChunkSize[]) => ({
  bytes: chunks.reduce((n, c) => n + c.bytes, 0),
  gzipBytes: chunks.reduce((n, c) => n + c.gzipBytes, 0),
});

/**
 * Text that only a probe parser puts in a bundle: guardParse's message (every probe's `parse`
 * goes through it) and one literal of each tool's parser. A minifier keeps string literals, so a
 * parser in a chunk shows as one of these; the check also asserts the server build has them, so a
 * marker that stopped being a parser's is noticed instead of passing silently.
 */
export const PARSER_MARKERS: readonly string[] = [
  " parser failed unexpectedly: ",
  "dd prints its summary on stderr, so stderr must be captured",
  "nor a fio text report with job results",
  "not sar output: no sar table found",
  "not iozone output: no result table found",
  "step that handled files",
];

/** Every file under a build folder with one of the extensions. */
function filesUnder(dir: string, exts: readonly string[]): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) => exts.some((e) => f.endsWith(e))).map((f) => path.join(dir, f));
}

export interface ParserScan {
  /** Client chunks (.next/static) that carry a marker, with the markers found. */
  clientHits: { file: string; markers: string[] }[];
  /** Markers seen somewhere in the server build (each should be). */
  serverMarkers: string[];
  clientFiles: number;
}

export function scanForParsers(root = projectRoot): ParserScan {
  const client = filesUnder(path.join(nextDir(root), "static"), [".js"]);
  const clientHits = client.flatMap((file) => {
    const body = fs.readFileSync(file, "utf8");
    const markers = PARSER_MARKERS.filter((m) => body.includes(m));
    return markers.length > 0 ? [{ file: path.relative(root, file), markers }] : [];
  });
  const seen = new Set<string>();
  for (const file of filesUnder(path.join(nextDir(root), "server"), [".js"])) {
    if (seen.size === PARSER_MARKERS.length) break;
    const body = fs.readFileSync(file, "utf8");
    for (const m of PARSER_MARKERS) if (body.includes(m)) seen.add(m);
  }
  return { clientHits, serverMarkers: [...seen], clientFiles: client.length };
}
