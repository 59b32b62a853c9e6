// The agent as one executable: Node's single-executable application (SEA) format. A bundle with
// node-pty inside (its native addon as an embedded asset, see probes/agent/sea/native-addon.ts)
// is turned into a blob by `node --experimental-sea-config` and injected with postject into a copy
// of the node binary running this build. That binary's architecture is the only one this machine
// can make: Node offers no cross build, and another architecture's node cannot be fetched here.
import { execFileSync, spawnSync } from "node:child_process";
import { chmod, copyFile, mkdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { build, type Plugin } from "esbuild";
import { AGENT_ARCHES, agentFileName, localAgentArch, sha256File, type AgentArch } from "../lib/server/agent-download/agent-files";

/** The fuse Node's SEA support looks for (documented with the feature; the same in every Node ≥ 18.16). */
const SEA_FUSE = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2";

/** node-pty finds its addon by require() of a path next to its files; inside a SEA there is none. */
function embeddedAddonPlugin(root: string): Plugin {
  const loader = path.join(root, "probes/agent/sea/native-addon.ts");
  return {
    name: "node-pty-embedded-addon",
    setup(b) {
      b.onLoad({ filter: /node-pty[\\/]lib[\\/]utils\.js$/ }, async (args) => {
        const source = await readFile(args.path, "utf8");
        if (!source.includes("function loadNativeModule(")) throw new Error(`${args.path}: node-pty no longer defines loadNativeModule; revisit the SEA build`);
        return {
          contents: `${source}\nexports.loadNativeModule = require(${JSON.stringify(loader)}).loadEmbeddedAddon;\n`,
          loader: "js",
          resolveDir: path.dirname(args.path),
        };
      });
    },
  };
}

/**
 * ws's optional native helpers become a module that throws, which ws catches and does without:
 * left external, the SEA's require() would print a warning at every start.
 */
const noOptionalHelpers: Plugin = {
  name: "no-optional-native-helpers",
  setup(b) {
    b.onResolve({ filter: /^(bufferutil|utf-8-validate)$/ }, (args) => ({ path: args.path, namespace: "absent" }));
    b.onLoad({ filter: /.*/, namespace: "absent" }, (args) => ({ contents: `throw new Error(${JSON.stringify(`${args.path} is not part of the agent executable`)});`, loader: "js" }));
  },
};

export interface SeaResult {
  arch: AgentArch;
  file: string;
  bytes: number;
  sha256: string;
  /** The newest glibc symbol version node or the addon asks for: the oldest glibc it runs on. */
  glibc: { version: string; from: string };
}

/**
 * The newest GLIBC_2.x a binary references (its version names are plain strings in .dynstr).
 * node-pty's addon is compiled on the build machine, so its floor is that machine's glibc for the
 * symbols it uses (openpty and forkpty moved into libc in 2.34), above Node's own 2.28.
 */
async function glibcNeeded(file: string): Promise<number[]> {
  const text = (await readFile(file)).toString("latin1");
  let best = [2, 0];
  for (const m of text.matchAll(/GLIBC_2\.(\d+)(?:\.(\d+))?/g)) {
    const v = [2, Number(m[1]), Number(m[2] ?? 0)];
    if (v[1]! > best[1]! || (v[1] === best[1] && (v[2] ?? 0) > (best[2] ?? 0))) best = v;
  }
  return best;
}

/** Builds dist/agent/probebook-agent-<this machine's arch>; says why the other one is not built. */
export async function buildSea(root: string, out: string): Promise<{ built: SeaResult; skipped: { arch: AgentArch; reason: string }[] }> {
  const arch = localAgentArch();
  if (!arch) throw new Error(`the agent executable is built on Linux x64 or arm64, not ${process.platform}-${process.arch}`);
  const work = path.join(out, ".sea");
  await rm(work, { recursive: true, force: true });
  await mkdir(work, { recursive: true });
  const bundle = path.join(work, "agent-sea.cjs");
  await build({
    entryPoints: [path.join(root, "probes/agent/sea/main.ts")],
    outfile: bundle,
    bundle: true,
    platform: "node",
    target: "node20",
    format: "cjs",
    plugins: [embeddedAddonPlugin(root), noOptionalHelpers],
    legalComments: "none",
    logLevel: "warning",
  });
  const addon = path.join(root, "node_modules/node-pty/build/Release/pty.node");
  await stat(addon).catch(() => {
    throw new Error(`${addon} is missing: npm install compiles it`);
  });
  const blob = path.join(work, "agent.blob");
  const config = { main: bundle, output: blob, disableExperimentalSEAWarning: true, useSnapshot: false, useCodeCache: false, assets: { "pty.node": addon } };
  await writeFile(path.join(work, "sea-config.json"), JSON.stringify(config, null, 2));
  execFileSync(process.execPath, ["--experimental-sea-config", path.join(work, "sea-config.json")], { stdio: ["ignore", "ignore", "inherit"] });

  const file = path.join(out, agentFileName(arch));
  await copyFile(process.execPath, file);
  await chmod(file, 0o755);
  // postject's CLI (a devDependency) in a child: its ELF library prints a warning per note section
  // it cannot name, dozens of lines that mean nothing here; shown only if the injection fails.
  const postject = path.join(root, "node_modules/postject/dist/cli.js");
  const injected = spawnSync(process.execPath, [postject, file, "NODE_SEA_BLOB", blob, "--sentinel-fuse", SEA_FUSE], { encoding: "utf8" });
  if (injected.status !== 0) throw new Error(`postject failed (exit ${injected.status}):\n${injected.stdout}${injected.stderr}`);
  const digest = await sha256File(file);
  // sha256sum's own format, so `sha256sum -c` reads it.
  await writeFile(`${file}.sha256`, `${digest}  ${path.basename(file)}\n`);
  await rm(work, { recursive: true, force: true });
  const floors = await Promise.all([process.execPath, addon].map(async (f) => ({ from: f, v: await glibcNeeded(f) })));
  const top = floors.reduce((a, b) => (b.v[1]! > a.v[1]! || (b.v[1] === a.v[1] && (b.v[2] ?? 0) > (a.v[2] ?? 0)) ? b : a));
  const glibc = { version: top.v.filter((n, i) => i < 2 || n > 0).join("."), from: top.from === addon ? "node-pty's addon, compiled on this machine" : "Node" };
  const other = AGENT_ARCHES.filter((a) => a !== arch).map((a) => ({
    arch: a,
    reason: `not built: it needs a node binary for ${a.replace("linux-", "")} to inject into, and this build runs on ${arch} with no other node at hand`,
  }));
  return { built: { arch, file, bytes: (await stat(file)).size, sha256: digest, glibc }, skipped: other };
}
