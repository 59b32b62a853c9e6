import crypto from "node:crypto";
import type { Prisma } from "@prisma/client";
import { admitProbe } from "../../../probes/admission";
import { capabilitiesSchema } from "../../../probes/protocol/schemas";
import type { CreateExperimentInput } from "../../api/schemas/experiments";
import { db } from "../../db";
import { AppError } from "../../http/app-error";
import { notifyHost } from "../../instance/notify";
import { gridPoints, interleavedOrder, pointLabel } from "../../sweeps/grid";
import type { SweepGrid } from "../../sweeps/types";
import { addRefusal } from "../experiments/create-experiment";
import type { StoredArm, StoredPolicy } from "../experiments/arm-plan";
import { missingToolMessage, reportedHostFacts } from "../hosts/host-summary";
import type { StoredSweep } from "./sweep-plan";

type FieldErrors = Record<string, string[]>;

/** Each point runs once; the policy is stored for the shape every experiment row has. */
const SWEEP_POLICY: StoredPolicy = { min: 1, max: 1, stop: "cv", precisionPct: 5, cvTarget: 2.5, budgetMin: null, warmup: false, order: "abba", dropCaches: false };

/**
 * Stores a sweep (kind "sweep") and queues every point at once, in the interleaved order: the
 * agent claims a host's runs oldest first, so each run's creation time is a millisecond after the
 * one before it in that order. Every point's parameters pass the fio probe's admission (schema,
 * allowed directories, free space) first; nothing is queued when one is refused.
 */
export async function createSweep(opts: { input: CreateExperimentInput; createdById: string | null }): Promise<{ id: string }> {
  const { input } = opts;
  const spec = input.sweep;
  if (!spec) throw new AppError("BAD_REQUEST", "A sweep needs sweep: { iodepths, numjobs }.", { sweep: ["Give sweep.iodepths and sweep.numjobs."] });
  const host = await db().host.findUnique({ where: { id: input.hostId }, select: { id: true, name: true, capabilities: true, profile: true } });
  if (!host) throw new AppError("NOT_FOUND", `No host ${input.hostId}.`);
  if (!capabilitiesSchema.safeParse(host.capabilities).success) {
    throw new AppError("BAD_REQUEST", "This host's agent has not reported what it can do yet: start the agent on the host, then try again.", { hostId: ["No capabilities reported yet."] });
  }
  const missing = missingToolMessage(host.capabilities, "fio", host.name);
  if (missing) throw new AppError("BAD_REQUEST", missing, { probe: ["apt-get install fio"] });

  const base = { ...(input.params ?? {}) };
  delete base.steadyState;
  const grid: SweepGrid = {
    iodepths: spec.iodepths,
    numjobs: spec.numjobs,
    blockSizesKiB: spec.blockSizesKiB ?? [typeof base.blockSizeKiB === "number" ? base.blockSizeKiB : 4],
  };
  // sweep.steadyState is the criterion; params.steadyState is taken when the sweep names none.
  const steadyState = spec.steadyState === undefined ? ((input.params?.steadyState as StoredSweep["steadyState"]) ?? null) : spec.steadyState;
  const points = gridPoints(grid);
  const facts = reportedHostFacts(host, "fio");
  const errors: FieldErrors = {};
  const arms: StoredArm[] = [];
  for (const p of points) {
    const params = { ...base, iodepth: p.iodepth, numjobs: p.numjobs, blockSizeKiB: p.blockSizeKiB, ...(steadyState ? { steadyState } : {}) };
    const admitted = admitProbe({ probe: "fio", params }, facts);
    if (!admitted.ok) {
      // A point's refusal names the params field, or the sweep's when the grid put it there.
      const before = Object.keys(errors).length;
      addRefusal(errors, admitted.refusal, "params.target", host.name);
      for (const [k, msgs] of Object.entries(errors)) {
        const moved = k === "params.iodepth" ? "sweep.iodepths" : k === "params.numjobs" ? "sweep.numjobs" : k === "params.blockSizeKiB" && spec.blockSizesKiB ? "sweep.blockSizesKiB" : k.startsWith("params.steadyState") && spec.steadyState ? k.replace("params.", "sweep.") : null;
        if (moved) {
          delete errors[k];
          (errors[moved] ??= []).push(...msgs.map((m) => `${pointLabel(p, grid.blockSizesKiB.length > 1)}: ${m}`));
        }
      }
      if (Object.keys(errors).length > before) break;
      continue;
    }
    arms.push({ label: pointLabel(p, grid.blockSizesKiB.length > 1), params: admitted.params as Record<string, unknown> });
  }
  if (Object.keys(errors).length > 0) {
    const first = Object.values(errors)[0]?.[0] ?? "The sweep is invalid.";
    throw new AppError("BAD_REQUEST", `The sweep cannot run on ${host.name}: ${first}`, errors);
  }
  const order = interleavedOrder(points);
  const stored: StoredSweep = { grid, steadyState, order };
  const rw = String(arms[0]?.params?.rw ?? "randread");
  const title = input.title ?? `fio ${rw} sweep: QD ${grid.iodepths.join(",")} × jobs ${grid.numjobs.join(",")}${grid.blockSizesKiB.length > 1 ? ` × ${grid.blockSizesKiB.join(",")} KiB` : ""}`.slice(0, 200);
  const id = await db().$transaction(async (tx) => {
    const exp = await tx.experiment.create({
      data: {
        hostId: host.id,
        createdById: opts.createdById,
        title,
        kind: "sweep",
        sweep: stored as unknown as Prisma.InputJsonValue,
        probe: "fio",
        preset: null,
        params: (arms[0]?.params ?? {}) as Prisma.InputJsonValue,
        arms: arms as unknown as Prisma.InputJsonValue,
        policy: SWEEP_POLICY as unknown as Prisma.InputJsonValue,
        orderSeed: crypto.randomInt(1, 2 ** 31 - 1),
      },
      select: { id: true },
    });
    const start = Date.now();
    for (const [i, armIndex] of order.entries()) {
      const arm = arms[armIndex]!;
      await tx.probeRun.create({
        data: {
          hostId: host.id,
          probe: "fio",
          params: arm.params as Prisma.InputJsonValue,
          origin: "AGENT",
          status: "QUEUED",
          createdById: opts.createdById,
          createdAt: new Date(start + i),
          experimentId: exp.id,
          armIndex,
          round: 0,
          notes: `Sweep point ${arm.label} (${i + 1} of ${order.length})`,
        },
      });
    }
    return exp.id;
  });
  await notifyHost(host.id);
  return { id };
}
