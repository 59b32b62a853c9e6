// How big a lab volume is for a probe, in one pure function that the server (when it plans an
// experiment) and the agent (when it checks an arm before making anything) both use, so the two
// can never disagree. The probe's file is at most a quarter of the volume: a file system that is
// nearly full allocates differently (ext4 and xfs fall back to smaller, scattered extents, btrfs
// starts to fight for metadata chunks), and the comparison would measure the fill level, not
// the file system. The margin covers the new file system's own metadata (journal, inode tables,
// allocation groups) and the agent's free-space margin.
import { MIN_IMAGE_BYTES } from "./file-systems";

const MiB = 2 ** 20;
/** The probe's file is at most 1/VOLUME_FACTOR of the volume. */
export const VOLUME_FACTOR = 4;
/** Kept aside for metadata and the agent's free-space margin (job-guard's 64 MiB). */
export const METADATA_MARGIN_BYTES = 128 * MiB;

/** The lab volume size for a probe that writes `probeBytes`: max(MIN_IMAGE_BYTES, 4 × probeBytes + margin), in whole MiB. */
export function labImageBytesFor(probeBytes: number): number {
  const raw = Math.max(MIN_IMAGE_BYTES, VOLUME_FACTOR * Math.max(0, probeBytes) + METADATA_MARGIN_BYTES);
  return Math.ceil(raw / MiB) * MiB;
}

/** Why a volume of `volumeBytes` is too small for a probe writing `probeBytes`, or null. */
export function labVolumeTooSmall(volumeBytes: number, probeBytes: number): string | null {
  const need = labImageBytesFor(probeBytes);
  if (volumeBytes >= need) return null;
  const mib = (b: number) => `${Math.ceil(b / MiB)} MiB`;
  return `the probe writes ${mib(probeBytes)}, which must be at most a quarter of its lab volume: that needs ${mib(need)}, and this one has ${mib(volumeBytes)}`;
}

/** The largest probe file, in whole 64 MiB, that a volume of `volumeBytes` holds by the quarter rule; null under 64 MiB. */
export function labFileFitsMiB(volumeBytes: number | null): number | null {
  if (volumeBytes === null || !(volumeBytes > 0)) return null;
  const mib = Math.floor((volumeBytes - METADATA_MARGIN_BYTES) / VOLUME_FACTOR / MiB / 64) * 64;
  return mib >= 64 ? mib : null;
}
