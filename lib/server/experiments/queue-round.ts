import type { Prisma } from "@prisma/client";
import { roundOrder } from "../../experiments/schedule";
import { readArms, readPolicy, warmupRounds } from "./arm-plan";

/**
 * Queues one run per arm for round `round`, in the round's interleaved order (A B, B A, … or a
 * seeded shuffle). The agent claims a host's runs oldest first, so each run gets its own
 * creation time, a millisecond apart, in that order.
 */
export async function queueRound(tx: Prisma.TransactionClient, experimentId: string, round: number): Promise<string[]> {
  const exp = await tx.experiment.findUniqueOrThrow({
    where: { id: experimentId },
    select: { hostId: true, createdById: true, probe: true, arms: true, policy: true, orderSeed: true },
  });
  const arms = readArms(exp.arms);
  const policy = readPolicy(exp.policy);
  const order = roundOrder(arms.length, round, policy.order, exp.orderSeed);
  const warmup = round < warmupRounds(policy);
  const start = Date.now();
  const ids: string[] = [];
  for (const [i, armIndex] of order.entries()) {
    const arm = arms[armIndex];
    if (!arm) continue;
    const run = await tx.probeRun.create({
      data: {
        hostId: exp.hostId,
        probe: exp.probe,
        params: (arm.params ?? {}) as Prisma.InputJsonValue,
        origin: "AGENT",
        status: "QUEUED",
        createdById: exp.createdById,
        createdAt: new Date(start + i),
        experimentId,
        armIndex,
        round,
        notes: warmup ? `Experiment arm ${arm.label}, warm-up (not counted)` : `Experiment arm ${arm.label}, round ${round + 1}`,
      },
      select: { id: true },
    });
    ids.push(run.id);
  }
  return ids;
}
