import { agentReply } from "@/lib/http/agent-reply";
import { registerRequestSchema } from "@/probes/protocol/schemas";
import { AppError } from "@/lib/http/app-error";
import { assertNotThrottled, recordFailure, type ThrottleKey } from "@/lib/http/auth-throttle";
import { clientAddress } from "@/lib/http/client-address";
import { parseJsonBody, route } from "@/lib/http/handle-route";
import { registerAgent, registrationTokenIsLive } from "@/lib/server/agent/register-agent";
import { recordAudit } from "@/lib/server/audit/record-audit";

export const dynamic = "force-dynamic";

export const POST = route(async (req: Request) => {
  // Only failed registrations count, per real client address, and a blocked address still
  // registers good tokens: a fleet behind one NAT enrols freely, and how many tokens exist is
  // bounded per operator when they are issued.
  const key: ThrottleKey = { policy: "registerClient", id: clientAddress(req.headers) };
  const body = await parseJsonBody(req, registerRequestSchema, 2 * 1024 * 1024);
  try {
    await assertNotThrottled([key]);
  } catch (err) {
    if (!(await registrationTokenIsLive(body.registrationToken))) throw err;
  }
  try {
    const registered = await registerAgent(body);
    await recordAudit({ actor: null, action: "host.register", target: { type: "host", id: registered.hostId }, ip: key.id, details: { hostName: registered.hostName } });
    return agentReply(registered, { status: 201 });
  } catch (err) {
    if (err instanceof AppError && err.code === "UNAUTHORIZED") await recordFailure([key]);
    throw err;
  }
});
