import { failure, guardParse, success } from "../core/probe";
import { clip, formatBytes } from "../core/text";
import type { Measurement, ParseOutcome } from "../core/types";
import { DD_FILE } from "./command";
import { describeFormat } from "./formats";
import { findSummary, lastTransfer, RECORDS_RE, segments, type Transfer } from "./summary";

const DIRECT_HINT =
  "with direct I/O the block size must be a multiple of the device's logical block size (use a power of two of at least 4 KiB), and the file system must support O_DIRECT";
const READ_FIRST_HINT =
  "a dd read needs an existing file: write one first (the agent lays out the file itself before a read preset)";

/** Turns a "dd: …" line into a message a person can act on. */
function explain(line: string, copied: Transfer | null): string {
  const body = line.replace(/^\s*dd:\s*/, "");
  const open = /^failed to open '(.+)': (.+)$/.exec(body);
  const io = /^error (writing|reading) '(.+)': (.+)$/.exec(body);
  let message: string;
  if (open) {
    const [, path = "", reason = ""] = open;
    message = `dd could not open ${clip(path, 300)}: ${reason}`;
    if (/No such file/i.test(reason) && path.endsWith(DD_FILE)) message += ` (${READ_FIRST_HINT})`;
  } else if (io) {
    const [, verb = "", path = "", reason = ""] = io;
    message = `dd failed ${verb} ${clip(path, 300)}: ${reason}`;
    if (/Invalid argument/i.test(reason)) message += ` (${DIRECT_HINT})`;
  } else {
    message = `dd failed: ${clip(body, 300)}`;
    if (/Invalid argument/i.test(body)) message += ` (${DIRECT_HINT})`;
  }
  if (copied && copied.bytes > 0) message += `; ${formatBytes(copied.bytes)} had been copied`;
  return message;
}

export const parseDd = guardParse("dd", (output: string): ParseOutcome => {
  const segs = segments(output);
  const summary = findSummary(segs);
  const warnings: string[] = [];
  const errors: string[] = [];
  for (const s of segs) {
    const line = s.text.trim();
    if (!line.startsWith("dd:")) continue;
    if (/^dd:\s*warning\b/i.test(line)) warnings.push(clip(line, 300));
    else errors.push(line);
  }
  if (errors.length > 0) return failure(errors.map((e) => explain(e, summary)).join("; "));

  if (!summary) {
    if (output.trim() === "") return failure("no dd output: dd prints its summary on stderr, so stderr must be captured");
    const progress = lastTransfer(segs);
    if (progress) {
      return failure(`dd output has no final summary (interrupted?); last progress: ${formatBytes(progress.bytes)} after ${progress.seconds} s`);
    }
    return failure(
      "not dd output: no transfer summary found (coreutils \"… bytes … copied, … s, … MB/s\", busybox, toybox or BSD \"… bytes transferred in … secs\")",
    );
  }

  for (const s of segs) {
    const rec = RECORDS_RE.exec(s.text);
    if (rec && Number(rec[2]) > 0) {
      warnings.push(`dd reports ${rec[2]} partial block(s) in "${clip(s.text, 80)}": the source ended early or returned short reads`);
    }
  }

  const measurements: Measurement[] = [
    { metric: "bytes", value: summary.bytes, unit: "B", dims: {} },
    { metric: "seconds", value: summary.seconds, unit: "s", dims: {} },
  ];
  // dd's own rate is rounded to 2–3 digits; bytes ÷ seconds keeps the precision of the inputs.
  if (summary.seconds > 0) {
    measurements.push({ metric: "throughput", value: summary.bytes / summary.seconds, unit: "B/s", dims: {} });
  } else {
    warnings.push("dd reported 0 seconds: no throughput can be computed");
  }
  if (summary.bytes === 0) warnings.push("dd copied 0 bytes");
  return success("dd", null, measurements, warnings, describeFormat(summary));
});
