// The names a share gives what it hides, and the scrubbing of free text. One instance per share,
// so the same directory, machine or address gets the same alias in the runs, the profiles and the
// experiment's labels and sentences, and the share still reads consistently.
import type { ShareInclude } from "../../api/schemas/comparisons";

const letter = (n: number) => (n < 26 ? String.fromCharCode(65 + n) : String(n + 1));

const IPV4_SRC = String.raw`(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)`;
const IPV4 = new RegExp(String.raw`(?<![\w.])${IPV4_SRC}(?![\w.])`, "g");
/** Hex groups with "::" or all eight groups (so "10:00:00" is a time, not an address); optionally bracketed. */
const IPV6 = /\[?(?<![\w:.])(?:[0-9a-f]{0,4}:){2,7}[0-9a-f]{0,4}(?:%\w+)?(?![\w:.])\]?/gi;
const isIpv6 = (s: string) => /^[0-9a-f:]+(?:%\w+)?$/i.test(s) && /[0-9a-f]/i.test(s) && (s.includes("::") || (s.match(/:/g) ?? []).length === 7);
const unbracket = (s: string) => s.replace(/^\[|\]$/g, "");
const isAddress = (s: string) => new RegExp(`^${IPV4_SRC}$`).test(s) || isIpv6(unbracket(s));
/**
 * A dotted name whose last label is a word, as host names are. Sysctl and tunable names have the
 * same shape ("vm.swappiness", "thp.enabled"), and so do FUSE file systems ("fuse.sshfs"): names
 * under those roots are not host names.
 */
const DOTTED = /(?<![\w./@-])[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*\.[a-z]{2,24}(?![\w-]|\.[\w-])/gi;
const NOT_HOSTS = /^(?:vm|kernel|fs|net|dev|abi|debug|user|sunrpc|crypto|thp|queue|fuse)\./i;
/** A path: a slash at the start or after a space, bracket, quote, "=", ":" or ",". */
const PATH = /(?<=^|[\s(=:,'"[])\/[^\s,;()'"\]]+/g;
/** World Wide Names and EUI/NAA identifiers of disks. */
const WWN = /(?<![\w])(?:wwn-)?0x[0-9a-f]{12,}|(?<![\w])(?:naa|eui|t10)\.[0-9a-z._-]{8,}/gi;

export class ShareAliases {
  private readonly hosts = new Map<string, string>();
  private readonly names = new Map<string, string>();
  private readonly paths = new Map<string, string>();
  private readonly addresses = new Map<string, string>();

  constructor(readonly include: ShareInclude) {}

  /** "host A", "host B" … one letter per machine (keyed by the host's key). */
  host(key: string): string {
    if (!this.hosts.has(key)) this.hosts.set(key, `host ${letter(this.hosts.size)}`);
    return this.hosts.get(key)!;
  }

  /** A name that stands for a host (its registered name, its OS hostname): the host's alias wherever it appears. */
  knowName(name: string | null | undefined, alias: string): void {
    const n = name?.trim().toLowerCase();
    // A name of letters only ("debian", "ubuntu": cloud images' defaults) is a word as well; replacing
    // it everywhere would turn "Debian GNU/Linux" into "host A GNU/Linux". Dotted ones are caught
    // by shape anyway.
    const identifies = (x: string) => x.length >= 3 && !/^[a-z]+$/.test(x);
    if (!n || !identifies(n) || this.names.has(n)) return;
    this.names.set(n, alias);
    // The short name of a dotted hostname ("db01" of "db01.corp.example") stands for it too.
    const short = n.split(".")[0]!;
    if (short !== n && identifies(short) && !this.names.has(short)) this.names.set(short, alias);
  }

  /** "path 1", "path 2" … one per distinct path across the share. */
  path(p: string): string {
    if (this.include.paths) return p;
    if (!this.paths.has(p)) this.paths.set(p, `path ${this.paths.size + 1}`);
    return this.paths.get(p)!;
  }

  /** Another machine the share mentions (a file server, an address): "server 1", "address 1" … */
  server(name: string): string {
    if (this.include.hostnames) return name;
    const key = name.toLowerCase();
    const known = this.names.get(key);
    if (known) return known;
    if (!this.addresses.has(key)) {
      const kind = isAddress(name) ? "address" : "server";
      const n = [...this.addresses.values()].filter((a) => a.startsWith(kind)).length;
      this.addresses.set(key, `${kind} ${n + 1}`);
    }
    return this.addresses.get(key)!;
  }

  /** Whether a string is a host name or an address (the whole string). */
  static isHostLike(s: string): boolean {
    const t = s.trim();
    return isAddress(t) || (new RegExp(`^(?:${DOTTED.source})$`, "i").test(t) && !NOT_HOSTS.test(t));
  }

  /**
   * Free text with what the share hides replaced by its alias: known paths and names first
   * (longest first, so "/srv/a" inside "/srv/ab" is not touched), then anything shaped like a
   * path, an address, a host name or a disk's WWN.
   */
  text(s: string): string {
    let out = s;
    if (!this.include.paths) {
      for (const p of [...this.paths.keys()].sort((a, b) => b.length - a.length)) out = out.split(p).join(this.paths.get(p)!);
      out = out.replace(PATH, (token) => {
        if (/^path \d+$/.test(token)) return token;
        // A label cut at 60 characters ends in a path's beginning: the path it began.
        const whole = token.length > 1 && out.endsWith(token) ? [...this.paths.keys()].filter((p) => p.startsWith(token)) : [];
        return whole.length === 1 ? this.paths.get(whole[0]!)! : this.path(token);
      });
    }
    if (!this.include.hostnames) {
      out = out.replace(IPV4, (ip) => this.server(ip));
      out = out.replace(IPV6, (ip) => (isIpv6(unbracket(ip)) ? this.server(unbracket(ip)) : ip));
      for (const n of [...this.names.keys()].sort((a, b) => b.length - a.length)) {
        // Not inside a path: a shown directory keeps its name.
        out = out.replace(new RegExp(`(?<![\\w./-])${n.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\w-]|\\.[\\w-])`, "gi"), this.names.get(n)!);
      }
      out = out.replace(DOTTED, (name) => (NOT_HOSTS.test(name) ? name : this.server(name)));
    }
    if (!this.include.models) out = out.replace(WWN, "(device id hidden)");
    return out;
  }
}
