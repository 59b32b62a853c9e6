// Where to go after sign-in. An open redirect there hands a freshly signed-in user to a
// phishing page, so only a path on this site is accepted.

const BASE = "http://probebook.invalid";

/**
 * `next` when it is a same-origin relative path (`/runs?x=1#y`), else "/". Browsers treat `\` as
 * `/` and drop tabs and newlines, so `/\evil.example` or `/\t/evil.example` would leave the site:
 * those are refused outright before the URL parser gets a say, and the parsed result must keep
 * our origin.
 */
export function safeNext(next: string | null | undefined): string {
  if (typeof next !== "string" || next.length === 0 || next.length > 2048) return "/";
  if (!next.startsWith("/") || next.startsWith("//")) return "/";
  // Backslashes (raw or percent-encoded) and control characters never belong in our paths.
  if (next.includes("\\") || /%5c/i.test(next) || [...next].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) return "/";
  let url: URL;
  try {
    url = new URL(next, BASE);
  } catch {
    return "/";
  }
  if (url.origin !== BASE) return "/";
  return `${url.pathname}${url.search}${url.hash}`;
}
