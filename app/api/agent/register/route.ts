import { registerRequestSchema } from "@/probes/protocol/schemas";
import { parseJsonBody, route } from "@/lib/http/handle-route";
import { registerAgent } from "@/lib/server/agent/register-agent";
import { clientKey, rateLimit } from "@/lib/http/rate-limit";

export const dynamic = "force-dynamic";

export const POST = route(async (req: Request) => {
  await rateLimit("agentRegister", clientKey(req.headers));
  const body = await parseJsonBody(req, registerRequestSchema, 2 * 1024 * 1024);
  return Response.json(await registerAgent(body), { status: 201 });
});
