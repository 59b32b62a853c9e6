// What the file-system lab can make, and with which options. The mkfs flags are fixed here
// (force on an image file, quiet, and no discard: mkfs would otherwise punch the preallocated
// image back into a sparse file, and arms would allocate blocks during the probe); mount options come from a short list per file system so an
// arm can try e.g. noatime or xfs logbsize without ever passing free text to mount.

export const LAB_FS = ["ext2", "ext3", "ext4", "xfs", "btrfs"] as const;
export type LabFs = (typeof LAB_FS)[number];

export const MKFS: Record<LabFs, { binary: string; args: string[] }> = {
  ext2: { binary: "mkfs.ext2", args: ["-F", "-q", "-E", "nodiscard"] },
  ext3: { binary: "mkfs.ext3", args: ["-F", "-q", "-E", "nodiscard"] },
  ext4: { binary: "mkfs.ext4", args: ["-F", "-q", "-E", "nodiscard"] },
  xfs: { binary: "mkfs.xfs", args: ["-f", "-q", "-K"] },
  btrfs: { binary: "mkfs.btrfs", args: ["-f", "-q", "-K"] },
};

/** xfsprogs 5.19+ refuses file systems under 300 MB; every arm gets the same size anyway. */
export const MIN_IMAGE_BYTES = 320 * 2 ** 20;

const COMMON = ["noatime", "relatime", "nodiratime", "lazytime", "sync"] as const;
const EXT_JOURNAL = ["data=ordered", "data=writeback", "data=journal", "barrier=0", "barrier=1"] as const;

/** Allowed mount options per file system; values with "=" are exact strings or patterns below. */
const ALLOWED: Record<LabFs, readonly (string | RegExp)[]> = {
  ext2: [...COMMON],
  ext3: [...COMMON, ...EXT_JOURNAL, /^commit=\d{1,3}$/],
  ext4: [...COMMON, ...EXT_JOURNAL, /^commit=\d{1,3}$/, "dioread_nolock", "nodelalloc", "delalloc"],
  xfs: [...COMMON, /^logbsize=(16|32|64|128|256)k$/, /^logbufs=[2-8]$/, "nobarrier", "inode64", "largeio"],
  btrfs: [...COMMON, "ssd", "nossd", "compress=zstd", "compress=lzo", "nodatacow", /^commit=\d{1,3}$/],
};

export function isLabFs(value: unknown): value is LabFs {
  return typeof value === "string" && (LAB_FS as readonly string[]).includes(value);
}

/** The options as given, or the first one this file system does not accept. */
export function checkMountOptions(fsType: LabFs, options: readonly string[]): { ok: true } | { ok: false; error: string } {
  for (const option of options) {
    const allowed = ALLOWED[fsType].some((a) => (typeof a === "string" ? a === option : a.test(option)));
    if (!allowed) return { ok: false, error: `mount option "${option}" is not offered for ${fsType}` };
  }
  return { ok: true };
}
