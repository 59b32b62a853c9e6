// Samples the machine once a second while a probe runs and hands each sample to the run's
// streamer, which numbers, spools and uploads it with the output. A sample that cannot be read
// is skipped, never fatal: telemetry must not fail the measurement it describes.
import { deviceOfDirectory } from "../telemetry/target-device";
import { TelemetrySampler } from "../telemetry/sampler";
import type { TelemetrySample } from "../telemetry/types";

export interface TelemetryLoopOptions {
  /** The probe's target directory: its block device is the one sampled. */
  target: string;
  onSample(sample: TelemetrySample): void;
  intervalMs?: number;
  /** Root of /proc and /sys (tests). */
  root?: string;
}

export interface TelemetryLoop {
  /** Takes a last sample of the interval so far (when at least 0.2 s long) and stops. */
  stop(): Promise<void>;
}

export async function startTelemetry(opts: TelemetryLoopOptions): Promise<TelemetryLoop> {
  const device = await deviceOfDirectory(opts.target, opts.root ? `${opts.root}/sys` : undefined);
  const sampler = new TelemetrySampler({ device, root: opts.root });
  await sampler.start();
  let lastAt = Date.now();
  let busy: Promise<void> = Promise.resolve();
  let stopped = false;
  const take = () => {
    busy = busy.then(async () => {
      const sample = await sampler.sample().catch(() => null);
      lastAt = Date.now();
      if (sample) opts.onSample(sample);
    });
    return busy;
  };
  const timer = setInterval(() => {
    if (!stopped) void take();
  }, opts.intervalMs ?? 1000);
  timer.unref();
  return {
    async stop() {
      if (stopped) return busy;
      stopped = true;
      clearInterval(timer);
      await busy;
      if (Date.now() - lastAt >= 200) await take();
    },
  };
}
