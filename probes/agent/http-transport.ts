import http from "node:http";
import https from "node:https";

/** What one POST brought back. */
export interface RawResponse {
  status: number;
  statusText: string;
  text: string;
}

/** Raised when the time given to one request ran out (networkReason says "request timed out"). */
export class RequestTimeout extends Error {
  constructor(ms: number) {
    super(`no answer within ${ms} ms`);
    this.name = "TimeoutError";
  }
}

/**
 * Kept-alive connections to one server, one pool per client: an agent makes a request or two a
 * second while a probe runs, and node:http costs the agent a fraction of the CPU and garbage that
 * fetch does per request (which was most of the agent's own CPU while streaming; bench/README.md).
 * Four sockets at most: the long-poll, uploads and beats.
 */
export function keepAliveAgent(server: string): http.Agent {
  return new URL(server).protocol === "https:" ? new https.Agent({ keepAlive: true, maxSockets: 4 }) : new http.Agent({ keepAlive: true, maxSockets: 4 });
}

/** One POST: where, what, and how long to wait for the whole answer. */
export interface PostRequest {
  agent: http.Agent;
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  signal?: AbortSignal;
}

/**
 * POSTs the body and reads the whole answer. Rejects with the socket's error (ECONNREFUSED …), a
 * RequestTimeout after timeoutMs, or the signal's AbortError.
 */
export async function postRaw(request: PostRequest): Promise<RawResponse> {
  try {
    return await postOnce(request);
  } catch (err) {
    // A kept-alive socket the server had just closed for idleness: the request never reached it,
    // so it goes again at once on a new socket (node:http's documented `reusedSocket` case).
    if (!(err instanceof StaleSocket)) throw err;
    return postOnce(request);
  }
}

class StaleSocket extends Error {}

function postOnce({ agent, url, headers, body, timeoutMs, signal }: PostRequest): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const mod = target.protocol === "https:" ? https : http;
    const req = mod.request(target, {
      method: "POST",
      agent,
      signal,
      headers: { ...headers, "content-length": String(Buffer.byteLength(body)) },
    });
    const timer = setTimeout(() => req.destroy(new RequestTimeout(timeoutMs)), timeoutMs);
    let answered = false;
    const fail = (err: Error) => {
      clearTimeout(timer);
      const code = (err as { code?: string }).code;
      reject(!answered && req.reusedSocket && (code === "ECONNRESET" || code === "EPIPE") ? new StaleSocket(err.message) : err);
    };
    req.on("error", fail);
    req.on("response", (res) => {
      answered = true;
      const parts: Buffer[] = [];
      res.on("data", (d: Buffer) => parts.push(d));
      res.on("error", fail);
      res.on("end", () => {
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, statusText: res.statusMessage ?? "", text: Buffer.concat(parts).toString("utf8") });
      });
    });
    req.end(body);
  });
}
