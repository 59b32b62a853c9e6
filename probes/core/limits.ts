// Plain limits and helpers of the schemas (schemas.ts), without zod: progress readers that run
// in the browser (probes/live-catalog.ts) use them too, and zod's classic build is not shipped there.

// Dimension values are short labels (device, CPU, job, time); 256 characters is generous.
export const MAX_DIM_CHARS = 256;
export const MAX_METRIC_CHARS = 128;

/** Joins a validated target directory and a fixed file name. */
export function inTarget(target: string, name: string): string {
  return target.endsWith("/") ? `${target}${name}` : `${target}/${name}`;
}

export function isPowerOfTwo(n: number): boolean {
  return Number.isInteger(n) && n > 0 && (n & (n - 1)) === 0;
}

/** Powers of two between min and max (inclusive), e.g. record sizes 4..16384 KiB. */
export function powersOfTwo(min: number, max: number): number[] {
  const out: number[] = [];
  for (let n = 1; n <= max; n *= 2) if (n >= min) out.push(n);
  return out;
}

/**
 * The one limit on an imported output, pasted or uploaded as a file: its size in bytes (UTF-8,
 * so "é" counts 2). The API document, the import routes and the import form all read it here.
 */
export const MAX_IMPORT_BYTES = 16 * 1024 * 1024;

/** The limit in words, as the form and the errors state it. */
export const MAX_IMPORT_WORDS = `16 MiB (${MAX_IMPORT_BYTES.toLocaleString("en-US")} bytes)`;

/** "is empty" for an empty chosen file, whichever side notices it first (the form, or the file route). */
export const EMPTY_IMPORT_FILE = "The file is empty: choose a file with the tool's output, or paste it.";

/** What an output (or file) over the limit is told, naming what is too large and the limit. */
export function importTooLarge(what: "output" | "file"): string {
  return what === "file"
    ? `The file is larger than the import's limit of ${MAX_IMPORT_WORDS}: import a shorter part of it (one day's report, one run).`
    : `The output is larger than the import's limit of ${MAX_IMPORT_WORDS}, counted in bytes of UTF-8: import a shorter part of it, or upload it as a file.`;
}

/** A string's length in bytes of UTF-8, without encoding it (the browser's paste check uses it too). */
export function utf8Length(s: string): number {
  let bytes = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}
