import type { JobSetup } from "../../../probes/protocol/schemas";
import { db } from "../../db";
import { jobSetupOf, readArms, readPolicy } from "./arm-plan";

/** The setup a claimed experiment run carries to the agent: its arm's lab, tunables and cache drop. */
export async function jobSetupForRun(opts: { experimentId: string | null; armIndex: number | null }): Promise<JobSetup | undefined> {
  if (!opts.experimentId || opts.armIndex === null) return undefined;
  const exp = await db().experiment.findUnique({ where: { id: opts.experimentId }, select: { arms: true, policy: true, labImageBytes: true } });
  const arm = exp ? readArms(exp.arms)[opts.armIndex] : undefined;
  if (!exp || !arm) return undefined;
  return jobSetupOf(arm, readPolicy(exp.policy), exp.labImageBytes === null ? null : Number(exp.labImageBytes));
}
