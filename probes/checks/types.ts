// A result checked against what the machine did: each flag says which check failed, the
// evidence read from the run's own telemetry (or its duration), and the guide section that
// explains why such a number does not measure what it claims.

export interface RunCheck {
  /** Stable id: "cache-served-read", "write-not-on-device", "too-short", "too-few-samples", "device-busy-elsewhere", "cpu-busy-elsewhere", … */
  code: string;
  title: string;
  /** One or two sentences with the figures that decided it ("the device read 0.2 MiB while dd read 1,024 MiB"). */
  evidence: string;
  guide: { slug: string; section: string; href: string } | null;
}
