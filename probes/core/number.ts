// Tools print numbers through the C library of the user's locale: "1,2" in de_DE, "1 234,5"
// with a (narrow) no-break space in fr_FR, "6.1e-05" from %g. LC_ALL=C is forced for our own
// runs, but imported outputs come from anywhere.

// Space-like characters used as thousands separators: space, NBSP, thin space, NNBSP, apostrophes.
const GROUPING = /[\s\u00a0\u2009\u202f'\u2019]/g;
const PLAIN = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * Parses a number written in any common locale. Returns null (never throws) when the text is
 * not a single finite number.
 *
 * A lone comma is taken as the decimal separator: these tools never group thousands, so
 * "1,234" from a tool in a comma-decimal locale means 1.234. Two or more commas (or dots) can only be grouping.
 */
export function parseLocaleNumber(input: string): number | null {
  if (typeof input !== "string" || input.length === 0 || input.length > 64) return null;
  let s = input.trim().replace(/\u2212/g, "-");
  let exponent = "";
  const exp = /[eE][+-]?\d+$/.exec(s);
  if (exp) {
    exponent = exp[0];
    s = s.slice(0, exp.index);
  }
  s = s.replace(GROUPING, "");
  if (s.length === 0) return null;

  const commas = count(s, ",");
  const dots = count(s, ".");
  if (commas > 0 && dots > 0) {
    // Whichever comes last is the decimal separator; the other one groups thousands.
    const decimal = s.lastIndexOf(",") > s.lastIndexOf(".") ? "," : ".";
    const group = decimal === "," ? "." : ",";
    if (count(s, decimal) > 1) return null;
    s = s.split(group).join("").replace(decimal, ".");
  } else if (commas === 1) {
    s = s.replace(",", ".");
  } else if (commas > 1) {
    if (!validGrouping(s, ",")) return null;
    s = s.split(",").join("");
  } else if (dots > 1) {
    if (!validGrouping(s, ".")) return null;
    s = s.split(".").join("");
  }
  const text = s + exponent;
  if (!PLAIN.test(text)) return null;
  const value = Number(text);
  return Number.isFinite(value) ? value : null;
}

function count(s: string, ch: string): number {
  let n = 0;
  for (const c of s) if (c === ch) n++;
  return n;
}

function validGrouping(s: string, sep: string): boolean {
  const parts = s.replace(/^[+-]/, "").split(sep);
  const [first, ...rest] = parts;
  return first !== undefined && /^\d{1,3}$/.test(first) && rest.every((p) => /^\d{3}$/.test(p));
}

/** True when the token parses as a number; used to tell header lines from data rows. */
export function isNumeric(token: string): boolean {
  return parseLocaleNumber(token) !== null;
}
