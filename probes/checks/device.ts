// The device checks: what the target's block device moved, held against what the probe says it
// read and wrote. They apply only when the target has a device (tmpfs and ramfs have none: there
// the page cache is the medium, and the telemetry's device is null).
import { CHECK_GUIDES } from "./guides";
import { mib, type DeviceTotals } from "./telemetry-totals";
import type { ProbeClaim, RunCheck } from "./types";

const MIB = 1024 * 1024;
/** Below this a claim is too small to judge: file-system metadata and rounding weigh as much. */
const MIN_CLAIM_BYTES = 8 * MIB;
/** A write that had to reach the device: the device must show at least half of it. */
const WRITE_SEEN_SHARE = 0.5;
/** A read the device served shows at least a tenth of it (readahead only adds). */
const READ_SEEN_SHARE = 0.1;
/** Device bytes beyond 1.5 × the probe's, plus a background allowance, are someone else's. */
const BUSY_FACTOR = 1.5;
const BUSY_FLOOR_BYTES = 64 * MIB;
/** Journal commits, logs and the like of an idle host: a few MiB a second are no disturbance. */
const BUSY_FLOOR_PER_SECOND = 4 * MIB;

/**
 * O_DIRECT "tries to minimize cache effects" (open(2)) and a successful fdatasync/fsync means the
 * data reached the device (fsync(2)); either way the bytes must have crossed the device's
 * "sectors written" counter (Documentation/admin-guide/iostats.rst) before the probe's clock
 * stopped. A file system that ignores O_DIRECT, or a device stack that acknowledges flushes from
 * a cache above the measured device, shows here as a write the device never saw.
 */
export function writeNotOnDevice(claim: ProbeClaim, dev: DeviceTotals): RunCheck | null {
  const w = claim.write;
  if (!w || !w.reachesDevice || w.bytes < MIN_CLAIM_BYTES) return null;
  if (dev.writeBytes >= WRITE_SEEN_SHARE * w.bytes) return null;
  return {
    code: "write-not-on-device",
    title: "The write did not reach the device",
    evidence: `the device wrote ${mib(dev.writeBytes)} while ${claim.tool} wrote ${mib(w.bytes)} ${w.how}: the figure is the cache's, not the device's.`,
    guide: CHECK_GUIDES.writeNotOnDevice,
  };
}

/**
 * A buffered read of a file already in the page cache copies from memory and never reaches the
 * device (the agent lays out a dd read's file just before, and iozone and fio read what they
 * have just written): the rate is memory's. An O_DIRECT read bypasses the cache (open(2)), so
 * the device must serve it; when it did not, the file system did not honour the flag.
 */
export function cacheServedRead(claim: ProbeClaim, dev: DeviceTotals): RunCheck | null {
  const r = claim.read;
  if (!r || r.bytes < MIN_CLAIM_BYTES) return null;
  if (dev.readBytes >= READ_SEEN_SHARE * r.bytes) return null;
  return {
    code: "cache-served-read",
    title: "The read was served from the page cache",
    evidence: `the device read ${mib(dev.readBytes)} while ${claim.tool} read ${mib(r.bytes)} ${r.how}: the data came from memory, so the rate is the page cache's, not the device's.`,
    guide: CHECK_GUIDES.cacheServedRead,
  };
}

/** Read and write each held against what the probe accounts for in that direction. */
export function deviceBusyElsewhere(claim: ProbeClaim, dev: DeviceTotals): RunCheck | null {
  const floor = BUSY_FLOOR_BYTES + BUSY_FLOOR_PER_SECOND * dev.seconds;
  const ownRead = claim.read?.bytes ?? 0;
  const ownWrite = (claim.write?.bytes ?? 0) + (claim.extraWriteBytes ?? 0);
  const parts: string[] = [];
  if (dev.readBytes > BUSY_FACTOR * ownRead + floor) parts.push(`read ${mib(dev.readBytes)} while ${claim.tool} read ${mib(ownRead)}`);
  if (dev.writeBytes > BUSY_FACTOR * ownWrite + floor) parts.push(`wrote ${mib(dev.writeBytes)} while ${claim.tool} wrote ${mib(ownWrite)}`);
  if (parts.length === 0) return null;
  const layout = claim.extraWriteBytes ? ` (its ${mib(claim.extraWriteBytes)} file layout counted as its own)` : "";
  return {
    code: "device-busy-elsewhere",
    title: "The device was busy with other work",
    evidence: `the device ${parts.join(" and ")}${layout}: another workload used the device during the run and shared its time.`,
    guide: CHECK_GUIDES.deviceBusy,
  };
}
