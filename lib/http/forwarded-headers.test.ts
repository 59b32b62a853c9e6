import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { installPeerHeader, peerIsTrustedProxy, PEER_HEADER } from "./client-address";
import { dropUntrustedForwarding } from "./forwarded-headers";

// Issue 27 item 13: X-Forwarded-Host/-Proto/-For are the client's invention unless our proxy sent them.
describe("forwarding headers from untrusted peers", () => {
  it("are dropped unless the peer is trusted", () => {
    const headers = { host: "probebook.lan:3000", "x-forwarded-host": "evil", "x-forwarded-proto": "https", "x-forwarded-for": "1.2.3.4", forwarded: "host=evil", origin: "http://evil" };
    const kept = { ...headers };
    expect(dropUntrustedForwarding(kept, "10.0.0.2", () => true)).toEqual([]);
    expect(kept).toEqual(headers);
    const dropped = { ...headers };
    expect(dropUntrustedForwarding(dropped, "203.0.113.9", () => false).sort()).toEqual(["forwarded", "x-forwarded-for", "x-forwarded-host", "x-forwarded-proto"]);
    expect(dropped).toEqual({ host: "probebook.lan:3000", origin: "http://evil" });
  });

  describe("on a real socket, through the request hook", () => {
    const saved = process.env.TRUSTED_PROXIES;
    let server: http.Server;
    let seen: http.IncomingHttpHeaders = {};
    let url = "";
    beforeAll(async () => {
      installPeerHeader();
      server = http.createServer((req, res) => {
        seen = { ...req.headers };
        res.end("ok");
      });
      await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    });
    afterAll(() => new Promise<void>((r) => server.close(() => r())));
    afterEach(() => {
      if (saved === undefined) delete process.env.TRUSTED_PROXIES;
      else process.env.TRUSTED_PROXIES = saved;
    });
    const send = () => fetch(url, { headers: { "x-forwarded-host": "evil", "x-forwarded-proto": "https", "x-forwarded-for": "1.2.3.4", origin: "http://evil" } });

    it("a direct client's X-Forwarded-* never reach the app", async () => {
      delete process.env.TRUSTED_PROXIES;
      await send();
      expect(seen["x-forwarded-host"]).toBeUndefined();
      expect(seen["x-forwarded-proto"]).toBeUndefined();
      expect(seen["x-forwarded-for"]).toBeUndefined();
      expect(seen.origin).toBe("http://evil");
      expect(peerIsTrustedProxy(new Headers({ [PEER_HEADER]: String(seen[PEER_HEADER]) }))).toBe(false);
    });

    it("a trusted proxy's are kept", async () => {
      process.env.TRUSTED_PROXIES = "127.0.0.1";
      await send();
      expect(seen["x-forwarded-host"]).toBe("evil");
      expect(seen["x-forwarded-for"]).toBe("1.2.3.4");
      expect(peerIsTrustedProxy(new Headers({ [PEER_HEADER]: String(seen[PEER_HEADER]) }))).toBe(true);
    });
  });
});
