import { z } from "zod";
import type { PresetDef } from "../core/probe";
import { isPowerOfTwo, targetSchema } from "../core/schemas";

export const ddParamsSchema = z
  .object({
    target: targetSchema,
    sizeMiB: z
      .number({ error: (iss) => (iss.input === undefined ? "sizeMiB (how much to write or read, in MiB) is required" : undefined) })
      .int()
      .min(1, "size must be at least 1 MiB")
      .max(1024 * 1024, "size must be at most 1 TiB (1048576 MiB)"),
    mode: z.enum(["write", "read"]).default("write"),
    blockSizeKiB: z
      .number()
      .int()
      .min(4, "block size must be at least 4 KiB (direct I/O needs whole logical blocks)")
      .max(65536, "block size must be at most 64 MiB")
      .refine(isPowerOfTwo, "block size must be a power of two")
      .default(1024),
    /** oflag=direct (write) or iflag=direct (read). */
    direct: z.boolean().default(true),
    /** conv=fdatasync: only meaningful for writes; ignored for reads. */
    fdatasync: z.boolean().default(true),
    /**
     * No longer has an effect (kept so older runs' parameters still validate): every run works in
     * its own private directory, removed afterwards, and a read lays out its own file first.
     */
    keepFile: z.boolean().optional(),
  })
  .refine((p) => (p.sizeMiB * 1024) % p.blockSizeKiB === 0, {
    path: ["sizeMiB"],
    message: "size must be a whole number of blocks",
  });

export type DdParams = z.infer<typeof ddParamsSchema>;

export const ddDefaults: Omit<DdParams, "target"> = {
  sizeMiB: 1024,
  mode: "write",
  blockSizeKiB: 1024,
  direct: true,
  fdatasync: true,
};

const base = { sizeMiB: 1024, blockSizeKiB: 1024 };

export const ddPresets: Record<string, PresetDef<DdParams>> = {
  "write-direct": {
    title: "Direct write (1 GiB)",
    description:
      "dd if=/dev/zero of=<run dir>/probebook-dd.tmp bs=1M oflag=direct conv=fdatasync: sequential write that bypasses the page cache.",
    params: { ...base, mode: "write", direct: true, fdatasync: true },
  },
  "read-direct": {
    title: "Direct read (1 GiB)",
    description:
      "dd if=<run dir>/probebook-dd.tmp of=/dev/null bs=1M iflag=direct: the agent first writes and flushes the file, then dd reads it back bypassing the page cache; the file is removed afterwards.",
    params: { ...base, mode: "read", direct: true, fdatasync: false },
  },
  "write-buffered": {
    title: "Buffered write with fdatasync (1 GiB)",
    description: "Through the page cache, but the clock stops only after fdatasync has flushed the data to disk.",
    params: { ...base, mode: "write", direct: false, fdatasync: true },
  },
  "write-nosync": {
    title: "Buffered write without sync (1 GiB)",
    description:
      "Neither direct I/O nor fdatasync: dd finishes when the data is in the page cache, so the rate shows the cache, not the disk. Compare with write-buffered.",
    params: { ...base, mode: "write", direct: false, fdatasync: false },
  },
};
