import { agentApi } from "@/lib/api/agent";
import { claimJob } from "@/lib/server/agent/claim-job";
import { jobSetupForRun } from "@/lib/server/experiments/job-setup";
import { handle } from "../../../handle";

export const dynamic = "force-dynamic";

export const POST = handle(agentApi.claim, async ({ req, agent, body: { waitSec } }) => {
  const outcome = await claimJob({ credentialHash: agent.credentialHash, waitSec, signal: req.signal });
  if (!outcome) return { status: 204 };
  if ("requests" in outcome) return { status: 200, json: { requests: outcome.requests } };
  const { job } = outcome;
  const setup = await jobSetupForRun({ experimentId: job.experiment_id, armIndex: job.arm_index });
  return { status: 200, json: { runId: job.id, probe: job.probe, params: job.params, ...(setup ? { setup } : {}) } };
});
