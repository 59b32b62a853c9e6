// The CLI's config file: $XDG_CONFIG_HOME/probebook/config.json (else ~/.config/probebook/),
// written by `probebook login`. It holds API tokens, so it is created 0600 in a 0700 directory and
// refused when others may read it (as ssh refuses a private key). A token is kept per server and
// only ever sent to the server it was saved for, so `--server other` cannot leak it.
import { chmodSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { usageError } from "./exit-codes";

export interface CliConfig {
  /** The server used when neither --server nor PROBEBOOK_SERVER names one. */
  server?: string;
  /** API tokens by server URL (origin and path, as `normaliseServer` gives). */
  tokens: Record<string, string>;
}

type Env = Record<string, string | undefined>;

export function configPath(env: Env = process.env): string {
  const base = env.XDG_CONFIG_HOME?.trim() || path.join(env.HOME?.trim() || os.homedir(), ".config");
  return path.join(base, "probebook", "config.json");
}

/** http(s)://host:port/path without a trailing slash; a usage error names where the URL came from. */
export function normaliseServer(raw: string, from: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw usageError(`${from} "${raw}" is not a URL (expected e.g. http://127.0.0.1:3000).`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw usageError(`${from} must be an http:// or https:// URL, not ${url.protocol}`);
  return url.origin + url.pathname.replace(/\/+$/, "");
}

/** The config file, or an empty one when there is none; refused when group or others may read it. */
export function readConfig(env: Env = process.env): CliConfig {
  const file = configPath(env);
  let text: string;
  try {
    const st = statSync(file);
    if ((st.mode & 0o077) !== 0) {
      throw usageError(`${file} holds API tokens but others may read it (mode ${(st.mode & 0o777).toString(8)}): run \`chmod 600 ${file}\`, then try again.`);
    }
    text = readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return { tokens: {} };
    if ((err as NodeJS.ErrnoException).code) throw usageError(`Cannot read ${file}: ${(err as Error).message}.`);
    throw err;
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw usageError(`${file} is not JSON: fix it or delete it and run \`probebook login\` again.`);
  }
  const obj = (raw && typeof raw === "object" ? raw : {}) as { server?: unknown; tokens?: unknown };
  const tokens: Record<string, string> = {};
  if (obj.tokens && typeof obj.tokens === "object") {
    for (const [k, v] of Object.entries(obj.tokens)) if (typeof v === "string") tokens[k] = v;
  }
  return { ...(typeof obj.server === "string" ? { server: obj.server } : {}), tokens };
}

/** Saves a server's token and makes it the default server; the file is replaced whole, mode 0600. */
export function saveLogin(server: string, token: string, env: Env = process.env): string {
  const file = configPath(env);
  const current = readConfig(env);
  const next: CliConfig = { server, tokens: { ...current.tokens, [server]: token } };
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  // A file written 0600 from the start: the token is never readable by others, even briefly.
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(next, null, 2)}\n`, { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, file);
  return file;
}
