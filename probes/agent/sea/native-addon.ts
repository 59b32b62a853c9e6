// Loads node-pty's native addon inside the single-executable agent. A SEA's require() knows only
// Node's built-in modules, so the build swaps node-pty's loadNativeModule for this one
// (scripts/build-agent-sea.ts): it writes the pty.node asset the build embedded to a private file
// in the agent's state dir and loads it with process.dlopen — the same compiled addon the .cjs
// agent and the tests use, so a probe runs in the same terminal either way.
import { createHash } from "node:crypto";
import { closeSync, constants, fsyncSync, lstatSync, mkdirSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from "node:fs";
import os from "node:os";
import path from "node:path";

let nativeDir: string | null = null;

/** Where the addon goes: `<state-dir>/native`, set by the entry before node-pty is loaded. */
export function setNativeDir(dir: string): void {
  nativeDir = dir;
}

const sha256 = (data: Uint8Array): string => createHash("sha256").update(data).digest("hex");

/** The directory must be ours and closed to others: whoever can write there chooses the code we load. */
function privateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const st = lstatSync(dir);
  const uid = process.getuid?.() ?? 0;
  if (!st.isDirectory()) throw new Error(`${dir} is not a directory`);
  if (st.uid !== uid) throw new Error(`${dir} belongs to uid ${st.uid}, not to this agent (uid ${uid})`);
  if ((st.mode & 0o077) !== 0) throw new Error(`${dir} is open to other users (mode ${(st.mode & 0o777).toString(8)}); make it 0700`);
}

function readIfSame(file: string, digest: string): boolean {
  try {
    const st = lstatSync(file);
    return st.isFile() && sha256(readFileSync(file)) === digest;
  } catch {
    return false;
  }
}

/** Writes the addon next to its final name, then renames it: a half-written file is never loaded. */
function writeAddon(file: string, data: Uint8Array): void {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    unlinkSync(tmp);
  } catch {
    // none left over
  }
  const fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o500);
  try {
    writeSync(fd, data);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
}

/**
 * `data` as `<dir>/<name>-<sha>.node`, written once per content into a private directory and
 * read back: the path returned holds exactly these bytes.
 */
export function placeAddon(dir: string, name: string, data: Uint8Array): string {
  const digest = sha256(data);
  const file = path.join(dir, `${name}-${digest.slice(0, 16)}.node`);
  privateDir(dir);
  if (!readIfSame(file, digest)) writeAddon(file, data);
  // Checked again as written: what is loaded is byte for byte what the build embedded.
  if (!readIfSame(file, digest)) throw new Error(`${file} does not match the embedded addon after writing it`);
  return file;
}

/** The addon embedded under `<name>.node`, written to the state dir once per content and loaded. */
export function loadEmbeddedAddon(name: string): { dir: string; module: unknown } {
  if (!nativeDir) throw new Error(`the terminal addon ${name}.node has no directory to be written to (no --state-dir was resolved)`);
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- node:sea exists only in Node ≥ 20.12, and only matters inside the executable
  const sea = require("node:sea") as { getAsset(key: string): ArrayBuffer };
  const data = new Uint8Array(sea.getAsset(`${name}.node`));
  let file = path.join(nativeDir, `${name}.node`);
  try {
    file = placeAddon(nativeDir, name, data);
    const mod = { exports: {} as unknown };
    process.dlopen(mod, file, os.constants.dlopen.RTLD_NOW);
    return { dir: nativeDir, module: mod.exports };
  } catch (err) {
    // Worded without the package's name: main.ts reads "node-pty" as "run npm install", which does not apply here.
    throw new Error(`cannot load the terminal addon ${file}: ${err instanceof Error ? err.message : String(err)} (the state dir must be on a file system that allows executing, not noexec)`);
  }
}
