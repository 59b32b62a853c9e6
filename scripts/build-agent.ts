// Bundles the host agent into dist/agent/: one CommonJS file (zod, ws and the probe catalog inside,
// node-pty outside because it is a native module compiled on the host; ws's optional native
// helpers bufferutil and utf-8-validate outside too: ws requires them in a try and does without), a package.json that
// installs node-pty, the install README and the systemd unit example; and the same agent as one
// executable with its runtime and node-pty's addon inside (scripts/build-agent-sea.ts), with its
// SHA-256, which the server hands out at /agent/download/<arch>.
//   npx tsx scripts/build-agent.ts
import { chmod, copyFile, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { build } from "esbuild";
import { probeIds } from "../probes/catalog";
import { AGENT_VERSION } from "../probes/agent/version";
import { buildSea } from "./build-agent-sea";

const root = path.resolve(__dirname, "..");
const out = path.join(root, "dist", "agent");
const bundle = path.join(out, "probebook-agent.cjs");

async function main(): Promise<void> {
  const rootPkg = JSON.parse(await readFile(path.join(root, "package.json"), "utf8")) as { dependencies: Record<string, string> };
  const nodePty = rootPkg.dependencies["node-pty"];
  if (!nodePty) throw new Error("package.json has no node-pty dependency");

  await rm(out, { recursive: true, force: true });
  await mkdir(out, { recursive: true });
  const result = await build({
    entryPoints: [path.join(root, "probes/agent/main.ts")],
    outfile: bundle,
    bundle: true,
    platform: "node",
    target: "node20",
    format: "cjs",
    external: ["node-pty", "bufferutil", "utf-8-validate"],
    banner: { js: "#!/usr/bin/env node" },
    legalComments: "none",
    logLevel: "warning",
    metafile: true,
  });
  await chmod(bundle, 0o755);

  const pkg = {
    name: "probebook-agent",
    version: AGENT_VERSION,
    private: true,
    description: `Runs Probebook's storage probes (${probeIds.join(", ")}) on this host for the Probebook dashboard.`,
    license: "MIT",
    main: "probebook-agent.cjs",
    bin: { "probebook-agent": "probebook-agent.cjs" },
    engines: { node: ">=20" },
    dependencies: { "node-pty": nodePty },
    // npm 11 asks before running install scripts; node-pty's compiles the native module.
    allowScripts: { "node-pty": true },
  };
  await writeFile(path.join(out, "package.json"), `${JSON.stringify(pkg, null, 2)}\n`);
  for (const f of ["README.md", "probebook-agent.service", "install.sh"]) {
    await copyFile(path.join(root, "probes/agent/deploy", f), path.join(out, f));
  }
  const bytes = result.metafile.outputs[path.relative(root, bundle)]?.bytes ?? 0;
  console.log(`built ${path.relative(root, bundle)} (${(bytes / 1024).toFixed(0)} KiB, agent ${AGENT_VERSION}, node-pty ${nodePty} external)`);
  const started = Date.now();
  const sea = await buildSea(root, out);
  const mib = (sea.built.bytes / 2 ** 20).toFixed(1);
  console.log(`built ${path.relative(root, sea.built.file)} (${mib} MiB, Node ${process.versions.node} inside; needs glibc ≥ ${sea.built.glibc.version} for ${sea.built.glibc.from}; sha256 ${sea.built.sha256}) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  for (const s of sea.skipped) console.log(`probebook-agent-${s.arch}: ${s.reason}`);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
