// iozone's test numbers and what each prints, without zod (params.ts holds the schemas): the
// command builder and the live progress reader, which runs in the browser, use these.

/** iozone's -i numbers. */
export const IOZONE_TESTS = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12] as const;
export type IozoneTest = (typeof IOZONE_TESTS)[number];

/** Tests that have columns in the auto-mode table (8..12 run but print nothing there). */
export const AUTO_TABLE_TESTS: readonly IozoneTest[] = [0, 1, 2, 3, 4, 5, 6, 7];

/**
 * How many "Children see throughput" lines each test prints in throughput mode (iozone 3.489,
 * checked with -t 1): record rewrite (4) and pwritev/preadv (11, 12) print none on Linux.
 */
export const THROUGHPUT_LINES: Record<IozoneTest, number> = {
  0: 2, 1: 2, 2: 2, 3: 1, 4: 0, 5: 1, 6: 1, 7: 1, 8: 1, 9: 1, 10: 1, 11: 0, 12: 0,
};
