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
