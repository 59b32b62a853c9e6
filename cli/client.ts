import { configPath, normaliseServer, readConfig, type CliConfig } from "./config";
import { CliError, EXIT, usageError } from "./exit-codes";

export interface Connection {
  server: string;
  token: string;
}

/**
 * Where to send requests and with which token: --server, else PROBEBOOK_SERVER, else the config
 * file's server (`probebook login`); --token (deprecated), else PROBEBOOK_TOKEN, else the token the
 * config file holds for that server. Checked before anything is sent.
 */
export function connection(opts: { server?: string; token?: string }, env: Record<string, string | undefined> = process.env): Connection {
  let config: CliConfig | undefined;
  // Read only when needed: flags and variables alone work without (or despite) a config file.
  const fromConfig = () => (config ??= readConfig(env));
  const flagServer = opts.server?.trim();
  const envServer = env.PROBEBOOK_SERVER?.trim();
  const rawServer = flagServer || envServer || fromConfig().server;
  if (!rawServer) throw usageError("No server given: run `probebook login --server URL` once (it saves the server and your API token), or set PROBEBOOK_SERVER, or give --server URL.");
  const server = normaliseServer(rawServer, flagServer ? "--server" : envServer ? "PROBEBOOK_SERVER" : `The server in ${configPath(env)}`);
  if (opts.token !== undefined) process.stderr.write("probebook: warning: --token leaves the token in your shell history and the process list; use `probebook login` or PROBEBOOK_TOKEN instead.\n");
  // An empty variable counts as unset, as an empty --server does.
  const token = (opts.token ?? (env.PROBEBOOK_TOKEN?.trim() || undefined) ?? fromConfig().tokens[server] ?? "").trim();
  if (!token) throw usageError(`No API token for ${server}: run \`probebook login --server ${server}\` (it asks for the token), or set PROBEBOOK_TOKEN. Create a token under Settings → API tokens.`);
  if (/\s/.test(token)) throw usageError("The API token must not contain spaces.");
  return { server, token };
}

/** One request to the public HTTP API; a non-2xx answer becomes a CliError with the server's message. */
export async function request(conn: Connection, method: string, path: string, opts: { body?: unknown; headers?: Record<string, string>; signal?: AbortSignal } = {}): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(`${conn.server}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${conn.token}`,
        ...(opts.body !== undefined ? { "content-type": "application/json" } : {}),
        ...opts.headers,
      },
      body: opts.body !== undefined ? JSON.stringify(opts.body) : undefined,
      signal: opts.signal,
    });
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    throw new CliError(`Cannot reach ${conn.server}: ${cause?.code ?? cause?.message ?? (err as Error).message}.`, EXIT.UNREACHABLE);
  }
  if (res.ok) return res;
  const text = await res.text().catch(() => "");
  let message = `${method} ${path} answered ${res.status}`;
  try {
    const body = JSON.parse(text) as { error?: string; fieldErrors?: Record<string, string[]> };
    if (body.error) message = `${body.error} (HTTP ${res.status})`;
    if (body.fieldErrors) message += Object.entries(body.fieldErrors).map(([k, v]) => `\n  ${k}: ${v.join(" ")}`).join("");
  } catch {
    if (text) message += `: ${text.slice(0, 300)}`;
  }
  throw new CliError(message, EXIT.API_ERROR);
}

export async function getJson<T>(conn: Connection, path: string): Promise<T> {
  return (await (await request(conn, "GET", path)).json()) as T;
}
