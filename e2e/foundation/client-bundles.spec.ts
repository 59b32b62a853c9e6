// The production build this suite serves (the web server builds it first when the sources are
// newer) carries no probe parser in any browser chunk: every client chunk is searched for text
// only a parser holds (lib/runtime/client-bundles.ts), and the server build must hold each of
// those texts, so a marker that stopped belonging to a parser is noticed. The source-level check
// with the import chain is lib/client-imports.test.ts; bench/page-js.ts prints the sizes.
import { expect, test } from "@playwright/test";
import { PARSER_MARKERS, pageJs, scanForParsers, total } from "../../lib/runtime/client-bundles";

test("no probe parser in any browser chunk of the production build", async ({ request }) => {
  // Served means built: the web server starts only once the build is done.
  expect((await request.get("/api/health")).status()).toBe(200);
  const scan = scanForParsers();
  expect(scan.clientFiles).toBeGreaterThan(0);
  expect([...scan.serverMarkers].sort()).toEqual([...PARSER_MARKERS].sort());
  expect(scan.clientHits).toEqual([]);
});

test("the run page's own chunks stay within what its live view needs", async () => {
  const js = pageJs("/runs/[id]");
  const page = total(js.page);
  // 662 KiB before the parsers left (ARCHITECTURE.md, "The run page's JavaScript"), 520 KiB after;
  // the bound catches a parser or zod's classic build coming back, not a small change.
  expect(page.bytes).toBeLessThan(560 * 1024);
});
