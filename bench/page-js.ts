// The JavaScript a page sends to browsers in the production build, raw and gzipped, and whether
// any client chunk carries a probe parser. Run after `npx next build`:
//   npx tsx bench/page-js.ts [route …]        (default: /runs/[id])
// Exit code 1 when a parser is found in a client chunk.
import { PARSER_MARKERS, pageJs, scanForParsers, total } from "../lib/runtime/client-bundles";

const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
const routes = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ["/runs/[id]"];

for (const route of routes) {
  const js = pageJs(route);
  console.log(`${route}`);
  for (const c of [...js.page].sort((a, b) => b.bytes - a.bytes)) console.log(`  ${c.file.padEnd(36)} ${kib(c.bytes).padStart(10)} ${kib(c.gzipBytes).padStart(10)} gzip`);
  const p = total(js.page);
  const s = total(js.shared);
  console.log(`  page chunks: ${js.page.length}, ${kib(p.bytes)} (${kib(p.gzipBytes)} gzipped)`);
  console.log(`  shared runtime: ${js.shared.length} chunks, ${kib(s.bytes)} (${kib(s.gzipBytes)} gzipped)`);
  console.log(`  total: ${kib(p.bytes + s.bytes)} (${kib(p.gzipBytes + s.gzipBytes)} gzipped)`);
}

const scan = scanForParsers();
const missing = PARSER_MARKERS.filter((m) => !scan.serverMarkers.includes(m));
if (missing.length > 0) console.log(`note: markers not in the server build (no longer a parser's?): ${missing.join(" | ")}`);
if (scan.clientHits.length > 0) {
  for (const h of scan.clientHits) console.log(`parser in client chunk ${h.file}: ${h.markers.join(" | ")}`);
  process.exitCode = 1;
} else {
  console.log(`no probe parser in ${scan.clientFiles} client chunks`);
}
