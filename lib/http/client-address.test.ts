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
    expect(clientAddress(h(null, "1.2.3.4"), parseCidrList(""))).toBe("unknown");
    const forged = new Headers({ [PEER_HEADER]: "203.0.113.5" });
    expect(clientAddress(forged, parseCidrList(""))).toBe("unknown");
    const guessed = new Headers({ [PEER_HEADER]: `${"0".repeat(32)} 203.0.113.5` });
    expect(clientAddress(guessed, parseCidrList(""))).toBe("unknown");
  });

  it("matches IPv6 ranges, and IPv4 ranges in the IPv4-mapped form a dual-stack socket reports", () => {
    const trusted = parseCidrList("10.0.0.0/8, 2001:db8:aa::/48, ::1");
    // A dual-stack listener sees an IPv4 proxy as ::ffff:a.b.c.d; the IPv4 rule still vouches for it.
    expect(clientAddress(h("::ffff:10.1.2.3", "198.51.100.7"), trusted)).toBe("198.51.100.7");
    expect(clientAddress(h("::ffff:10.1.2.3", "198.51.100.7, ::ffff:10.9.9.9"), trusted)).toBe("198.51.100.7");
    // The same address in hex groups is the same address.
    expect(clientAddress(h("::ffff:a01:203", "198.51.100.7"), trusted)).toBe("198.51.100.7");
    // Outside the range: the mapped peer is reported as its IPv4 address, X-Forwarded-For ignored.
    expect(clientAddress(h("::ffff:11.0.0.1", "198.51.100.7"), trusted)).toBe("11.0.0.1");
    // IPv6 proxies, written in any of IPv6's spellings.
    expect(clientAddress(h("2001:db8:aa:1::9", "2001:db8:bb::5"), trusted)).toBe("2001:db8:bb::5");
    expect(clientAddress(h("2001:0db8:00aa:0000:0000:0000:0000:0009", "203.0.113.4"), trusted)).toBe("203.0.113.4");
    expect(clientAddress(h("0:0:0:0:0:0:0:1", "203.0.113.4, 2001:db8:aa::1"), trusted)).toBe("203.0.113.4");
    expect(clientAddress(h("2001:db8:ab::1", "203.0.113.4"), trusted)).toBe("2001:db8:ab::1");
    // An IPv4-mapped entry is the IPv4 address (and its prefix an IPv4 prefix).
    const mapped = parseCidrList("::ffff:192.168.0.0/16");
    expect(clientAddress(h("192.168.4.4", "203.0.113.4"), mapped)).toBe("203.0.113.4");
    expect(clientAddress(h("::ffff:192.168.4.4", "203.0.113.4"), mapped)).toBe("203.0.113.4");
    expect(clientAddress(h("192.169.0.1", "203.0.113.4"), mapped)).toBe("192.169.0.1");
  });

  // Issue 27 item 11: proxies that write the client's port.
  it("reads ip:port, [v6]:port and [v6] entries from a trusted proxy as their address", () => {
    const trusted = parseCidrList("10.0.0.0/8, fd00::/8");
    expect(clientAddress(h("10.1.2.3", "1.2.3.4:5555"), trusted)).toBe("1.2.3.4");
    expect(clientAddress(h("10.1.2.3", "[2001:db8::5]:6666"), trusted)).toBe("2001:db8::5");
    expect(clientAddress(h("10.1.2.3", "[2001:db8::5]"), trusted)).toBe("2001:db8::5");
    expect(clientAddress(h("10.1.2.3", "[::ffff:198.51.100.7]:80"), trusted)).toBe("198.51.100.7");
    // A trusted hop written with its port is still skipped.
    expect(clientAddress(h("10.1.2.3", "1.2.3.4:5555, 10.9.9.9:443"), trusted)).toBe("1.2.3.4");
    expect(clientAddress(h("10.1.2.3", "5.6.7.8, [fd00::9]:443"), trusted)).toBe("5.6.7.8");
    // A bare IPv6 address keeps its last group (it is not a port).
    expect(clientAddress(h("10.1.2.3", "2001:db8::5555"), trusted)).toBe("2001:db8::5555");
    // Not addresses, even with the forms above: garbage is not a key.
    for (const bad of ["1.2.3.4:", "1.2.3.4:port", "[2001:db8::5]:", "[nonsense]:80", "host.example:80", "1.2.3.4:5555:6"]) {
      expect(clientAddress(h("10.1.2.3", bad), trusted), bad).toBe("10.1.2.3");
    }
    // From an untrusted peer the header is still ignored, whatever its form.
    expect(clientAddress(h("203.0.113.9", "1.2.3.4:5555"), parseCidrList(""))).toBe("203.0.113.9");
  });

  it("refuses bad TRUSTED_PROXIES entries loudly", () => {
    expect(() => parseCidrList("10.0.0.0/33")).toThrow(/prefix/);
    expect(() => parseCidrList("proxy.example")).toThrow(/not an IP/);
    expect(() => parseCidrList("fd00::/129")).toThrow(/prefix/);
    expect(() => parseCidrList("10.0.0.0/8/8")).toThrow(/not an IP/);
    expect(() => parseCidrList("10.0.0.0/-1")).toThrow(/prefix/);
  });
});
