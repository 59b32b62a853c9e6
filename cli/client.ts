import { CliError, EXIT, usageError } from "./exit-codes";

export interface Connection {
  server: string;
  token: string;
}

/** --server / PROBEBOOK_SERVER and --token / PROBEBOOK_TOKEN, checked before anything is sent. */
export function connection(opts: { server?: string; token?: string }, env: Record<string, string | undefined> = process.env): Connection {
  const server = (opts.server ?? env.PROBEBOOK_SERVER ?? "").trim();
  const token = (opts.token ?? env.PROBEBOOK_TOKEN ?? "").trim();
  if (!server) throw usageError("Give the server with --server URL (or PROBEBOOK_SERVER), e.g. --server http://probebook.example.com:3000.");
  let url: URL;
  try {
    url = new URL(server);
  } catch {
    throw usageError(`--server "${server}" is not a URL (expected e.g. http://127.0.0.1:3000).`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw usageError(`--server must be an http:// or https:// URL, not ${url.protocol}`);
  if (!token) throw usageError("Give an API token with --token T or PROBEBOOK_TOKEN (create one under Settings → API tokens).");
  if (/\s/.test(token)) throw usageError("The API token must not contain spaces.");
  return { server: url.origin + url.pathname.replace(/\/+$/, ""), token };
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
