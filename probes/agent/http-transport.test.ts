import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keepAliveAgent, postRaw } from "./http-transport";

/**
 * A server that answers the first request on each connection and drops the connection on the
 * second, as a server does when it closes an idle kept-alive socket while the client reuses it.
 */
let server: net.Server;
let url = "";
let connections = 0;
beforeAll(async () => {
  server = net.createServer((socket) => {
    connections++;
    let served = 0;
    socket.on("data", (d: Buffer) => {
      if (!d.toString().includes("\r\n\r\n")) return;
      if (served++ === 0) socket.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 11\r\nconnection: keep-alive\r\n\r\n{"ok":true}');
      else socket.resetAndDestroy();
    });
    socket.on("error", () => undefined);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/x`;
});
afterAll(() => server.close());

describe("postRaw", () => {
  it("sends a request again on a new socket when the kept-alive one was closed under it", async () => {
    const agent = keepAliveAgent(url);
    const request = { agent, url, headers: { "content-type": "application/json" }, body: "{}", timeoutMs: 5000 };
    const first = await postRaw(request);
    const second = await postRaw(request);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.text).toBe('{"ok":true}');
    expect(connections).toBe(2);
    agent.destroy();
  });
});
