// One shape for what the machine did over time, whichever way it was recorded: the agent's
// telemetry samples, or a probe run whose probe draws a timeline (its view's `timeline`, e.g.
// launched, imported, or a host's history day). Diagnosis rules read only these series:
//   cpu.iowait, cpu.steal                   %
//   device.util (%), device.aquSz, device.rkBs, device.wkBs, device.rAwait, device.wAwait (ms)
//   memory.dirtyKb                          kB dirty
//   writeback.pendingKb                     kB dirty + under write-back (what the kernel limits)
//   writeback.backgroundLimitKb             kB, the kernel's background threshold (nr_dirty_background_threshold)
//   writeback.limitKb                       kB, the kernel's dirty limit (nr_dirty_threshold)
//   writeback.freerunKb                     kB, (background + limit) / 2: balance_dirty_pages lets writers
//                                           run free below it (dirty_freerun_ceiling, mm/page-writeback.c)
//   writeback.dirtiedKBs, writtenKBs        kB/s dirtied and written (telemetry)
//   paging.pgscand, paging.pgscank          pages/s
//   numa.maxFreeKb                          kB free on the NUMA node with the most (only with > 1 node)
//   probe.readKBs                           the probe's own read rate, from its result
import type { Timeline } from "../../probes/core/view";
import type { TelemetrySample } from "../../probes/telemetry/types";

export type { Timeline, TimelinePoint } from "../../probes/core/view";

export interface TelemetryContext {
  /** The probe's read throughput in kB/s, for reads only. */
  probeReadKBs?: number | null;
}

export function timelineFromTelemetry(samples: readonly TelemetrySample[], ctx: TelemetryContext = {}): Timeline {
  return {
    points: samples.map((s) => {
      const v: Record<string, number> = {
        "cpu.iowait": s.cpu.iowait,
        "cpu.steal": s.cpu.steal,
        "memory.dirtyKb": s.memory.dirty,
        "paging.pgscand": s.paging.pgscand,
        "paging.pgscank": s.paging.pgscank,
      };
      if (s.device) {
        Object.assign(v, {
          "device.util": s.device.util,
          "device.aquSz": s.device.aquSz,
          "device.rkBs": s.device.rkBs,
          "device.wkBs": s.device.wkBs,
          "device.rAwait": s.device.rAwait,
          "device.wAwait": s.device.wAwait,
        });
      }
      if (s.writeback) {
        Object.assign(v, {
          "writeback.pendingKb": s.memory.dirty + s.memory.writeback,
          "writeback.backgroundLimitKb": s.writeback.backgroundLimitKb,
          "writeback.limitKb": s.writeback.limitKb,
          "writeback.freerunKb": (s.writeback.backgroundLimitKb + s.writeback.limitKb) / 2,
          "writeback.dirtiedKBs": s.writeback.dirtiedKBs,
          "writeback.writtenKBs": s.writeback.writtenKBs,
        });
      }
      const nodes = Object.values(s.numaFree ?? {});
      if (nodes.length > 1) v["numa.maxFreeKb"] = Math.max(...nodes);
      if (ctx.probeReadKBs != null && ctx.probeReadKBs > 0) v["probe.readKBs"] = ctx.probeReadKBs;
      return { label: `${Math.round(s.t)} s`, values: v };
    }),
  };
}
