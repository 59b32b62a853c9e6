// The agent's HTTP routes served by the gateway itself, in front of Next.js: an upload or a claim
// here costs no framework request handling (about 1.5 ms each and ~0.2 MiB per open long-poll in
// Next's), and answers exactly what app/api/agent/* would (same handlers, checks and bodies).
import type { IncomingMessage, ServerResponse } from "node:http";
import { agentApi } from "../api/agent";
import { DEFAULT_MAX_BODY_BYTES } from "../api/operation";
import { AppError } from "../http/app-error";
import { errorBody, parseJsonText } from "../http/handle-route";
import { API_CSP, COMMON_SECURITY_HEADERS } from "../http/security-headers";
import { addressHeaders, matchAgentPath, serveAgentCall, type AgentAnswer } from "./serve-agent-call";

/** Headers of every gateway answer: the API's (next.config.ts) plus no caching and no gzip for agents. */
const ANSWER_HEADERS: Record<string, string> = {
  "content-security-policy": API_CSP,
  "cache-control": "no-store, no-transform",
  ...Object.fromEntries(COMMON_SECURITY_HEADERS.map((h) => [h.key.toLowerCase(), h.value])),
};

/**
 * Serves a POST to an agent operation and returns true; anything else (another path or method,
 * and register, which is rare and carries its throttling and audit in the routes) returns false
 * for Next.js to answer.
 */
export function handleAgentHttp(req: IncomingMessage, res: ServerResponse): boolean {
  if (req.method !== "POST" || !req.url?.startsWith("/api/agent/")) return false;
  const path = req.url.split("?")[0]!;
  const route = matchAgentPath(path);
  if (!route || route.key === "register") return false;
  void serve(req, res, route);
  return true;
}

async function serve(req: IncomingMessage, res: ServerResponse, route: NonNullable<ReturnType<typeof matchAgentPath>>): Promise<void> {
  const gone = new AbortController();
  res.on("close", () => gone.abort());
  let answer: AgentAnswer;
  try {
    const text = await readBody(req, agentApi[route.key].maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES);
    answer = await serveAgentCall({
      ...route,
      json: parseJsonText(text),
      authorization: req.headers.authorization ?? null,
      // Only the client's address (and the request id): none of the operations served here reads another header.
      headers: new Headers(addressHeaders(req)),
      signal: gone.signal,
      transport: "http",
    });
  } catch (err) {
    answer = errorBody(err, typeof req.headers["x-request-id"] === "string" ? req.headers["x-request-id"] : null);
  }
  if (res.destroyed) return;
  const json = answer.body === undefined ? null : JSON.stringify(answer.body);
  res.writeHead(answer.status, json === null ? ANSWER_HEADERS : { ...ANSWER_HEADERS, "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(json) });
  res.end(json ?? undefined);
}

/** The body as text, refused (413) beyond maxBytes before it is buffered whole. */
function readBody(req: IncomingMessage, maxBytes: number): Promise<string> {
  const tooLarge = () => new AppError("PAYLOAD_TOO_LARGE", `The request body is larger than ${Math.round(maxBytes / 1024)} KiB.`);
  if (Number(req.headers["content-length"] ?? "0") > maxBytes) {
    req.resume();
    return Promise.reject(tooLarge());
  }
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    req.on("data", (d: Buffer) => {
      size += d.length;
      if (size > maxBytes) {
        req.removeAllListeners("data");
        req.resume();
        reject(tooLarge());
      } else parts.push(d);
    });
    req.on("end", () => resolve(Buffer.concat(parts).toString("utf8")));
    req.on("error", reject);
  });
}
