import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AGENT_VERSION } from "../../probes/agent/version";
import { AGENT_PROTOCOL_VERSION } from "../../probes/protocol/version";
import { generateSecret, hashSecret } from "../auth/secret-token";
import { db } from "../db";
import { createHost } from "../server/hosts/create-host";
import { connectTestDatabase } from "../testing/db";
import { createGateway } from "./gateway";
import { serveAgentCall } from "./serve-agent-call";

connectTestDatabase();

// The agent gateway (what scripts/serve.ts serves agents with) on a real socket and database;
// register through the handler Next.js's route calls.
let server: http.Server;
let base: string;
let gateway: ReturnType<typeof createGateway>;
beforeAll(async () => {
  gateway = createGateway();
  server = http.createServer((req, res) => {
    if (gateway.handleRequest(req, res)) return;
    res.writeHead(404).end("not the gateway's");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  gateway.close();
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

async function post(path: string, body: unknown, credential?: string): Promise<{ status: number; body: Record<string, unknown> }> {
  if (path === "/api/agent/register") {
    // Next.js's route serves register (not the gateway): the same handler, called as it calls it.
    const a = await serveAgentCall({ key: "register", params: {}, json: body, authorization: null, headers: new Headers({ "x-forwarded-for": "192.0.2.7" }), signal: new AbortController().signal, transport: "http" });
    return { status: a.status, body: a.body as Record<string, unknown> };
  }
  const r = await fetch(`${base}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(credential ? { authorization: `Bearer ${credential}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: r.status, body: (await r.json()) as Record<string, unknown> };
}

const capabilities = (agentVersion: string, protocolVersion?: number) => ({ agentVersion, ...(protocolVersion === undefined ? {} : { protocolVersion }), tools: {}, allowedDirs: ["/srv/pb"] });
const hostRow = (id: string) => db().host.findUniqueOrThrow({ where: { id } });

describe("the server's agent version policy", () => {
  it("refuses to register an agent newer than its protocol with 426, naming both versions; the token stays usable", async () => {
    const { id, registrationToken } = await createHost({ name: `ver-${crypto.randomUUID().slice(0, 8)}` });
    const refused = await post("/api/agent/register", { registrationToken, profile: {}, capabilities: capabilities("9.0.0", AGENT_PROTOCOL_VERSION + 1) });
    expect(refused.status).toBe(426);
    expect(refused.body.error).toBe(
      `This agent (probebook-agent 9.0.0, protocol ${AGENT_PROTOCOL_VERSION + 1}) is newer than this server (its agent is ${AGENT_VERSION}, protocol ${AGENT_PROTOCOL_VERSION}), ` +
        `which accepts protocol ${AGENT_PROTOCOL_VERSION}. Upgrade the Probebook server, or install the agent this server ships with its installer's --upgrade (curl -fsSL <server>/agent/install.sh | sudo sh -s -- --upgrade).`,
    );
    expect((await hostRow(id)).agentCredentialHash).toBeNull();
    const ok = await post("/api/agent/register", { registrationToken, profile: {}, capabilities: capabilities(AGENT_VERSION, AGENT_PROTOCOL_VERSION) });
    expect(ok.status).toBe(201);
    expect(await hostRow(id)).toMatchObject({ agentVersion: AGENT_VERSION, agentProtocolVersion: AGENT_PROTOCOL_VERSION });
  });

  it("refuses an agent below the minimum release at register with the upgrade to run", async () => {
    const { registrationToken } = await createHost({ name: `ver-${crypto.randomUUID().slice(0, 8)}` });
    const refused = await post("/api/agent/register", { registrationToken, profile: {}, capabilities: capabilities("0.0.9", AGENT_PROTOCOL_VERSION) });
    expect(refused.status).toBe(426);
    expect(refused.body.error).toMatch(/^This agent \(probebook-agent 0\.0\.9, protocol \d+\) is too old for this server \(its agent is [\d.]+, protocol \d+\), which accepts agents from 0\.1\.0 on\. Upgrade the agent: on the host, run this server's installer with --upgrade/);
  });

  it("registers an agent that predates the protocol version as protocol 1, and records what a heartbeat reports", async () => {
    const { id, registrationToken } = await createHost({ name: `ver-${crypto.randomUUID().slice(0, 8)}` });
    const ok = await post("/api/agent/register", { registrationToken, profile: {}, capabilities: capabilities("0.1.0") });
    expect(ok.status).toBe(201);
    expect(await hostRow(id)).toMatchObject({ agentVersion: "0.1.0", agentProtocolVersion: 1 });
    const credential = ok.body.credential as string;
    // The same host upgraded: its next start reports the new version.
    const beat = await post("/api/agent/heartbeat", { runningRunIds: [], capabilities: capabilities(AGENT_VERSION, AGENT_PROTOCOL_VERSION) }, credential);
    expect(beat.status).toBe(200);
    expect(await hostRow(id)).toMatchObject({ agentVersion: AGENT_VERSION, agentProtocolVersion: AGENT_PROTOCOL_VERSION });
  });

  it("refuses a heartbeat whose capabilities name an incompatible agent, and leaves the host's record alone; plain beats pass", async () => {
    const credential = generateSecret("pba");
    const host = await db().host.create({ data: { name: `ver-${crypto.randomUUID().slice(0, 8)}`, agentCredentialHash: hashSecret(credential), agentVersion: "0.1.0", agentProtocolVersion: 1 } });
    const refused = await post("/api/agent/heartbeat", { runningRunIds: [], capabilities: capabilities("0.0.1", AGENT_PROTOCOL_VERSION) }, credential);
    expect(refused.status).toBe(426);
    expect(refused.body.error).toMatch(/probebook-agent 0\.0\.1.*too old/);
    expect(await hostRow(host.id)).toMatchObject({ agentVersion: "0.1.0", agentProtocolVersion: 1 });
    expect((await post("/api/agent/heartbeat", { runningRunIds: [] }, credential)).status).toBe(200);
  });
});
