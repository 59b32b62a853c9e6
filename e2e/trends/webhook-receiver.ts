// A local HTTP endpoint standing in for a webhook's receiver (a chat bridge, an incident tool):
// it records every request with its raw body, since a signature is computed over the exact bytes.
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  rawBody: Buffer;
  at: Date;
}

export interface WebhookReceiver {
  url: string;
  requests: ReceivedRequest[];
  close(): Promise<void>;
}

/** Listens on 127.0.0.1 on a free port and answers every request 204. */
export async function startWebhookReceiver(pathName = "/hook"): Promise<WebhookReceiver> {
  const requests: ReceivedRequest[] = [];
  const server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on("data", (d: Buffer) => parts.push(d));
    req.on("end", () => {
      requests.push({ method: req.method ?? "", path: req.url ?? "", headers: req.headers, rawBody: Buffer.concat(parts), at: new Date() });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${pathName}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Whether a request carries Probebook's signature: X-Probebook-Signature is
 * `sha256=<hex HMAC-SHA256(secret, "<X-Probebook-Timestamp>.<raw body>")>`. Compared in constant
 * time, as a receiver should.
 */
export function verifySignature(req: ReceivedRequest, secret: string): boolean {
  const timestamp = req.headers["x-probebook-timestamp"];
  const signature = req.headers["x-probebook-signature"];
  if (typeof timestamp !== "string" || typeof signature !== "string" || !signature.startsWith("sha256=")) return false;
  const expected = crypto.createHmac("sha256", secret).update(`${timestamp}.`).update(req.rawBody).digest();
  const given = Buffer.from(signature.slice("sha256=".length), "hex");
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
}
