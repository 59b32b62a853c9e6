import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLAIM_WAIT_SEC } from "../protocol/schemas";
import { AgentApi } from "./agent-api";
import { AgentHttpClient } from "./http-client";

/** A server of the version before the 50 s wait: refuses waitSec over 30 the way route() answers a schema error. */
let oldServer: Server;
let url = "";
const waits: number[] = [];
beforeAll(async () => {
  oldServer = createServer((req, res) => {
    // It predates the agent socket too: its upgrade is a route it does not know.
    if (req.method !== "POST") return void res.writeHead(404, { "content-type": "application/json" }).end('{"error":"Not found"}');
    let body = "";
    req.on("data", (d: Buffer) => (body += d.toString()));
    req.on("end", () => {
      const { waitSec } = JSON.parse(body) as { waitSec: number };
      waits.push(waitSec);
      if (waitSec > 30) {
        res.writeHead(400, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: "Some fields are invalid.", fieldErrors: { waitSec: ["Too big: expected number to be <=30"] } }));
        return;
      }
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => oldServer.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(oldServer.address() as AddressInfo).port}`;
});
afterAll(() => oldServer.close());

describe("AgentApi.claim", () => {
  it("falls back to the older servers' longest wait once, and keeps to it", async () => {
    const api = new AgentApi(new AgentHttpClient({ server: url, credential: "pba_x" }));
    expect(await api.claim()).toBeNull();
    expect(await api.claim()).toBeNull();
    expect(waits).toEqual([CLAIM_WAIT_SEC, 25, 25]);
  });
});
