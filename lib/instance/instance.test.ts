import crypto from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import { longIozoneOutput } from "../../probes/iozone/huge-output";
import { connectTestDatabase } from "../testing/db";
import { Instance, instance, startInstance, stopInstance } from "./instance";

connectTestDatabase();

/** Timers made by lib/instance from now on, recorded so the test can see each one ended. */
function recordInstanceTimers() {
  const made: { timer: NodeJS.Timeout; ms: number }[] = [];
  for (const name of ["setInterval", "setTimeout"] as const) {
    const real = globalThis[name];
    vi.spyOn(globalThis, name).mockImplementation(((fn: () => void, ms?: number, ...rest: unknown[]) => {
      const timer = (real as (...a: unknown[]) => NodeJS.Timeout)(fn, ms, ...rest);
      // Only timers lib/instance sets itself (the caller's frame), not those of the pool it queries.
      const frames = (new Error().stack ?? "").split("\n").slice(1);
      const caller = frames.find((f) => !/instance\.test\.ts|tinyspy|@vitest|\/vitest\//.test(f)) ?? "";
      if (caller.includes("lib/instance/")) made.push({ timer, ms: ms ?? 0 });
      return timer;
    }) as typeof setInterval);
  }
  // Node marks a timer destroyed once it is cleared or, for a one-shot, once it has fired.
  const alive = () => made.filter((m) => !(m.timer as unknown as { _destroyed: boolean })._destroyed).map((m) => m.ms);
  return { made, alive };
}

afterEach(() => vi.restoreAllMocks());

describe("the instance", () => {
  it("stop() ends every timer, worker and connection it started, with work in flight", async () => {
    const timers = recordInstanceTimers();
    const inst = new Instance();
    const upkeep = { markSilentRunsLost: vi.fn(async () => 0), expireQueuedRuns: vi.fn(async () => 0), pruneThrottles: vi.fn(async () => 0), pruneAudit: vi.fn(async () => 0), pruneSessions: vi.fn(async () => 0), deliverWebhooks: vi.fn(async () => 0), pruneRawLogs: vi.fn(async () => 0), fireDueSchedules: vi.fn(async () => 0) };
    inst.start(upkeep);
    // A live view, a waiting long-poll, an agent's request and a parse, all still going at the stop.
    await inst.listener.subscribe(`pb_test_${crypto.randomUUID().replace(/-/g, "")}`, () => undefined);
    await inst.jobWaiters.add(crypto.randomUUID(), () => undefined);
    inst.runWatch.add(crypto.randomUUID(), { onSweep: () => undefined });
    inst.hostToucher.touch(crypto.randomUUID());
    const parse = inst.parser.parse({ probe: "iozone", output: longIozoneOutput(100_000) }, { timeoutMs: 120_000 });
    await vi.waitFor(() => expect(inst.parser.inFlight).toBe(1), { timeout: 60_000, interval: 50 });
    expect(inst.listener.connected).toBe(true);
    // The webhook deliveries (5 s), the LOST sweep and the queue expiry (10 s each), the throttle pruning (10 min), the first
    // (5 min) and daily retention pruning, the job sweep (5 s), the live views' sweep (2 s), the touch flush (2 s) and the parse's deadline.
    expect(timers.alive().sort((a, b) => a - b)).toEqual([2000, 2000, 5000, 5000, 10_000, 10_000, 10_000, 120_000, 300_000, 600_000, 86_400_000]);

    await inst.stop();
    expect(timers.alive()).toEqual([]);
    expect(inst.listener.connected).toBe(false);
    expect(await parse).toMatchObject({ kind: "gave-up" });
    await expect(inst.listener.subscribe("pb_after_stop", () => undefined)).rejects.toThrow(/stopped/);
    expect(upkeep.markSilentRunsLost).not.toHaveBeenCalled();
    expect(upkeep.expireQueuedRuns).not.toHaveBeenCalled();
    expect(upkeep.pruneAudit).not.toHaveBeenCalled();
  }, 90_000);

  it("is one per process: startInstance starts the one instance() returns, stopInstance retires it", async () => {
    const upkeep = { markSilentRunsLost: async () => 0, expireQueuedRuns: async () => 0, pruneThrottles: async () => 0, pruneAudit: async () => 0, pruneSessions: async () => 0, deliverWebhooks: async () => 0, pruneRawLogs: async () => 0, fireDueSchedules: async () => 0 };
    const a = startInstance(upkeep);
    expect(instance()).toBe(a);
    expect(startInstance(upkeep)).toBe(a);
    await stopInstance();
    const b = instance();
    expect(b).not.toBe(a);
    await stopInstance();
  });
});
