import { serveInstallScript } from "@/lib/server/agent-download/serve-install-script";
import { serverUrl } from "@/lib/server/hosts/server-url";

export const dynamic = "force-dynamic";

/** The one-line installer, public: it holds no secret (the token is given on the host's command line). */
export async function GET(): Promise<Response> {
  return serveInstallScript(await serverUrl());
}
