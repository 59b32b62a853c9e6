// How the process's HTTP server (scripts/serve.ts) reaches the gateway that instrumentation.ts
// builds inside Next.js's server bundle: through one globalThis slot. The gateway must be built
// there, not imported by the server script, so that it runs on the same module instances as the
// routes (one instance, one pool, one LISTEN session) rather than a second copy of lib/.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Duplex } from "node:stream";

export interface Gateway {
  /** Serves the request and returns true, or returns false for Next.js to serve it. */
  handleRequest(req: IncomingMessage, res: ServerResponse): boolean;
  /** Takes the upgrade (the agent socket) and returns true, or returns false for Next.js. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean;
  /** Closes the agent sockets (agents reconnect), before the server stops. */
  close(): void;
}

type Slot = { gateway?: Gateway; waiting: ((g: Gateway) => void)[] };
const g = globalThis as unknown as { probebookGateway?: Slot };
const slot = (): Slot => (g.probebookGateway ??= { waiting: [] });

/** Called once by instrumentation.ts. */
export function publishGateway(gateway: Gateway): void {
  const s = slot();
  s.gateway = gateway;
  for (const w of s.waiting.splice(0)) w(gateway);
}

/** The gateway once instrumentation has published it, or null after timeoutMs. */
export function gatewayPublished(timeoutMs: number): Promise<Gateway | null> {
  const s = slot();
  if (s.gateway) return Promise.resolve(s.gateway);
  return new Promise((resolve) => {
    const t = setTimeout(() => resolve(null), timeoutMs);
    s.waiting.push((gw) => {
      clearTimeout(t);
      resolve(gw);
    });
  });
}
