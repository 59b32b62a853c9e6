import { agentApi } from "@/lib/api/agent";
import { AppError } from "@/lib/http/app-error";
import { assertNotThrottled, recordFailure, type ThrottleKey } from "@/lib/http/auth-throttle";
import { clientAddress } from "@/lib/http/client-address";
import { registerAgent, registrationTokenIsLive } from "@/lib/server/agent/register-agent";
import { recordAudit } from "@/lib/server/audit/record-audit";
import { handle } from "../../handle";

export const dynamic = "force-dynamic";

export const POST = handle(agentApi.register, async ({ req, body }) => {
  // Only failed registrations count, per real client address, and a blocked address still
  // registers good tokens: a fleet behind one NAT enrols freely, and how many tokens exist is
  // bounded per operator when they are issued.
  const key: ThrottleKey = { policy: "registerClient", id: clientAddress(req.headers) };
  try {
    await assertNotThrottled([key]);
  } catch (err) {
    if (!(await registrationTokenIsLive(body.registrationToken))) throw err;
  }
  try {
    const registered = await registerAgent(body);
    await recordAudit({ actor: null, action: "host.register", target: { type: "host", id: registered.hostId }, ip: key.id, details: { hostName: registered.hostName } });
    return { status: 201, json: registered };
  } catch (err) {
    if (err instanceof AppError && err.code === "UNAUTHORIZED") await recordFailure([key]);
    throw err;
  }
});
