// The bench talks to the server as users and agents do: an operator's API token for /api/hosts
// and /api/runs, and the agent's own client (AgentHttpClient + AgentApi) for /api/agent/*.
import crypto from "node:crypto";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@prisma/client";
import { createApiToken } from "../../lib/server/tokens/create-api-token";
import { createUser } from "../../lib/server/users/create-user";
import { AgentApi } from "../../probes/agent/agent-api";
import { AgentHttpClient } from "../../probes/agent/http-client";
import type { Capabilities } from "../../probes/protocol/schemas";

/**
 * An operator and its API token, made with the same functions `npm run admin -- user create` and
 * `token create` call (in-process: two CLI start-ups would cost seconds for nothing).
 */
export async function createOperatorToken(databaseUrl: string): Promise<string> {
  const client = new PrismaClient({ adapter: new PrismaPg({ connectionString: databaseUrl }) });
  try {
    const email = `bench-${crypto.randomBytes(4).toString("hex")}@example.com`;
    await createUser({ email, password: crypto.randomBytes(12).toString("base64url"), role: "OPERATOR" }, client);
    return (await createApiToken({ email, name: "bench" }, client)).token;
  } finally {
    await client.$disconnect();
  }
}

export class UserApi {
  constructor(
    readonly base: string,
    readonly token: string,
  ) {}

  async request<T>(method: "GET" | "POST", path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${this.base}${path}`, {
      method,
      headers: { authorization: `Bearer ${this.token}`, "content-type": "application/json", accept: "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: HTTP ${res.status} ${text.slice(0, 300)}`);
    return JSON.parse(text) as T;
  }

  createHost(name: string): Promise<{ id: string; registrationToken: string }> {
    return this.request("POST", "/api/hosts", { name });
  }

  async queueRuns(hostId: string, probe: string, params: Record<string, unknown>, repeats = 1): Promise<string[]> {
    return (await this.request<{ ids: string[] }>("POST", "/api/runs", { hostId, probe, params, repeats })).ids;
  }
}

/** sar on /dev/shm: the cheapest valid run; for the simulated agents it only has to exist. */
export const SAR_PARAMS = { target: "/dev/shm", sections: ["B", "d", "r", "u"], interval: 1, count: 20 };

/**
 * What a fake agent reports. The values are plausible, not detected: these agents never run a tool,
 * they only stream text, and createRun checks the target against allowedDirs and that sar exists.
 */
export const FAKE_CAPABILITIES: Capabilities = {
  agentVersion: "bench",
  tools: { sar: { installed: true, version: "bench", path: "/usr/bin/sar" } },
  allowedDirs: ["/dev/shm"],
};

export interface FakeAgent {
  hostId: string;
  api: AgentApi;
}

/** A host registered over the real API, with the agent's own HTTP client holding its credential. */
export async function registerFakeAgent(user: UserApi, agentBase: string, name: string): Promise<FakeAgent> {
  const host = await user.createHost(name);
  // The HTTP routes are what these benchmarks measure (and no socket is left open to end).
  const http = new AgentHttpClient({ server: agentBase, transport: "http" });
  const api = new AgentApi(http);
  const reg = await api.register({ registrationToken: host.registrationToken, profile: {}, capabilities: FAKE_CAPABILITIES });
  http.setCredential(reg.credential);
  return { hostId: reg.hostId, api };
}

/** Runs fn over items with at most `limit` in flight; results in input order. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
