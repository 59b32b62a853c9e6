import { describe, expect, it } from "vitest";
import { clientAddress, parseCidrList, PEER_HEADER, peerHeaderValue } from "./client-address";

const h = (peer: string | null, xff?: string) => {
  const headers = new Headers();
  if (peer) headers.set(PEER_HEADER, peerHeaderValue(peer));
  if (xff) headers.set("x-forwarded-for", xff);
  return headers;
};

describe("clientAddress", () => {
  it("ignores X-Forwarded-For from a peer that is not a trusted proxy (rotating it changes nothing)", () => {
    const none = parseCidrList("");
    expect(clientAddress(h("203.0.113.9", "1.2.3.4"), none)).toBe("203.0.113.9");
    expect(clientAddress(h("203.0.113.9", "5.6.7.8"), none)).toBe("203.0.113.9");
    expect(clientAddress(h("::ffff:127.0.0.1", "9.9.9.9"), none)).toBe("127.0.0.1");
  });

  it("reads X-Forwarded-For from the right when the peer is a trusted proxy", () => {
    const trusted = parseCidrList("10.0.0.0/8, 127.0.0.1, fd00::/8");
    // The client claims 1.1.1.1; our proxy appended the real address 198.51.100.7.
    expect(clientAddress(h("10.1.2.3", "1.1.1.1, 198.51.100.7"), trusted)).toBe("198.51.100.7");
    // Two proxies of ours in a row.
    expect(clientAddress(h("127.0.0.1", "198.51.100.7, 10.9.9.9"), trusted)).toBe("198.51.100.7");
    expect(clientAddress(h("fd12::1", "2001:db8::5"), trusted)).toBe("2001:db8::5");
    // A trusted proxy without a header: the proxy itself.
    expect(clientAddress(h("10.1.2.3"), trusted)).toBe("10.1.2.3");
    // Garbage in the chain is not a key.
    expect(clientAddress(h("10.1.2.3", "nonsense"), trusted)).toBe("10.1.2.3");
  });

  it("a client cannot forge the peer header", () => {
    expect(clientAddress(h(null, "1.2.3.4"), [])).toBe("unknown");
    const forged = new Headers({ [PEER_HEADER]: "203.0.113.5" });
    expect(clientAddress(forged, [])).toBe("unknown");
    const guessed = new Headers({ [PEER_HEADER]: `${"0".repeat(32)} 203.0.113.5` });
    expect(clientAddress(guessed, [])).toBe("unknown");
  });

  it("refuses bad TRUSTED_PROXIES entries loudly", () => {
    expect(() => parseCidrList("10.0.0.0/33")).toThrow(/prefix/);
    expect(() => parseCidrList("proxy.example")).toThrow(/not an IP/);
  });
});
