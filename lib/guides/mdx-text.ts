/**
 * Reads guide bodies without compiling them: which MDX components a body uses (for build-time
 * reference checks) and its plain text (for the search index and snippets).
 *
 * The guides use a small, fixed subset of MDX — self-closing components with string props,
 * GFM tables, fenced code — so regular expressions are enough and keep this module free of
 * the MDX toolchain (it also runs in unit tests).
 */

export interface ComponentUse {
  name: string;
  props: Record<string, string>;
  /** The tag as written, for error messages. */
  raw: string;
}

const FENCE = /^(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1[ \t]*$/gm;
const INLINE_CODE = /`[^`\n]*`/g;
const SELF_CLOSING_COMPONENT = /<([A-Z][\w.]*)((?:\s+[\w-]+="[^"]*")*)\s*\/>/g;
const PROP = /([\w-]+)="([^"]*)"/g;

function parseProps(attrs: string): Record<string, string> {
  const props: Record<string, string> = {};
  for (const p of attrs.matchAll(PROP)) props[p[1]!] = p[2]!;
  return props;
}

/** Every `<Component prop="…" />` outside code; MDX treats code as literal text. */
export function componentUses(body: string): ComponentUse[] {
  const withoutCode = body.replace(FENCE, "").replace(INLINE_CODE, "");
  return [...withoutCode.matchAll(SELF_CLOSING_COMPONENT)].map((m) => ({
    name: m[1]!,
    props: parseProps(m[2] ?? ""),
    raw: m[0],
  }));
}

/** What a component contributes to the readable text: a tunable's name, a button's label. */
function componentText(name: string, props: Record<string, string>): string {
  if (name === "Tunable") return props.name ?? "";
  if (name === "Reproduce") return props.label ?? "";
  // Charts and tables are data; their titles are not part of the prose.
  return "";
}

/**
 * The body as plain text on one line: markdown syntax and MDX tags removed, code kept (commands
 * such as `cat /proc/sys/vm/zone_reclaim_mode` are exactly what people search for), and
 * underscores inside identifiers left alone.
 */
export function mdxToPlainText(body: string): string {
  let s = body.replace(/\r\n?/g, "\n");
  // Code fences: drop the fence lines, keep the code.
  s = s.replace(/^(`{3,}|~{3,})[^\n]*$/gm, " ");
  // MDX and HTML comments.
  s = s.replace(/\{\/\*[\s\S]*?\*\/\}/g, " ").replace(/<!--[\s\S]*?-->/g, " ");
  s = s.replace(SELF_CLOSING_COMPONENT, (_m, name: string, attrs: string) => componentText(name, parseProps(attrs)));
  // Images and links keep their visible text.
  s = s.replace(/!\[([^\]]*)\]\([^)]*\)/g, "$1").replace(/\[([^\]]+)\]\([^)]*\)/g, "$1");
  // GFM table delimiter rows, then cell separators.
  s = s.replace(/^[ \t]*\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)+\|?[ \t]*$/gm, " ");
  s = s.replace(/\|/g, " ");
  // Line-start syntax: headings, block quotes, list markers.
  s = s.replace(/^[ \t]{0,3}#{1,6}[ \t]+/gm, "");
  s = s.replace(/^[ \t]*>[ \t]?/gm, "");
  s = s.replace(/^[ \t]*(?:[-*+]|\d+\.)[ \t]+/gm, "");
  // Strong emphasis and code spans; single-character emphasis only when it wraps whole words,
  // so `zone_reclaim_mode` and `2 * 3` survive.
  s = s.replace(/\*\*|`/g, "");
  s = s.replace(/(^|[\s(])[*_](?=\S)([^*_\n]+?)(?<=\S)[*_](?=$|[\s.,;:!?)])/gm, "$1$2");
  // Backslash escapes.
  s = s.replace(/\\([\\`*_{}[\]()#+\-.!<>|])/g, "$1");
  return s.replace(/\s+/g, " ").trim();
}
