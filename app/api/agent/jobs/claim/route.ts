import { agentNoContent, agentReply } from "@/lib/http/agent-reply";
import { claimRequestSchema } from "@/probes/protocol/schemas";
import { parseJsonBody, route } from "@/lib/http/handle-route";
import { agentCredentialHash } from "@/lib/server/agent/authenticate-agent";
import { claimJob } from "@/lib/server/agent/claim-job";
import { jobSetupForRun } from "@/lib/server/experiments/job-setup";

export const dynamic = "force-dynamic";

export const POST = route(async (req: Request) => {
  const credentialHash = await agentCredentialHash();
  const { waitSec } = await parseJsonBody(req, claimRequestSchema, 4096);
  const outcome = await claimJob({ credentialHash, waitSec, signal: req.signal });
  if (!outcome) return agentNoContent();
  if ("requests" in outcome) return agentReply({ requests: outcome.requests });
  const { job } = outcome;
  const setup = await jobSetupForRun({ experimentId: job.experiment_id, armIndex: job.arm_index });
  return agentReply({ runId: job.id, probe: job.probe, params: job.params, ...(setup ? { setup } : {}) });
});
