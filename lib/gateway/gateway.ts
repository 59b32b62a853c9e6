// The agent gateway: the agent protocol served in front of Next.js by the process's own HTTP
// server (scripts/serve.ts). HTTP requests to the agent routes and the agent socket's upgrades are
// taken here, and the agent executable's downloads (a 100 MB stream Next.js would send chunked,
// without its Content-Length); everything else goes on to Next.js unchanged.
import { AGENT_SOCKET_PATH } from "../../probes/protocol/agent-socket";
import { handleAgentDownload } from "../server/agent-download/serve-agent-download";
import { COMMON_SECURITY_HEADERS } from "../http/security-headers";
import { handleAgentHttp } from "./agent-http";
import { AgentSocketServer } from "./agent-socket-server";
import type { Gateway } from "./bridge";

const DOWNLOAD_HEADERS = Object.fromEntries(COMMON_SECURITY_HEADERS.map((h) => [h.key.toLowerCase(), h.value]));

export function createGateway(): Gateway {
  const sockets = new AgentSocketServer();
  return {
    handleRequest: (req, res) => handleAgentHttp(req, res) || handleAgentDownload(req, res, DOWNLOAD_HEADERS),
    handleUpgrade(req, socket, head) {
      if (req.url?.split("?")[0] !== AGENT_SOCKET_PATH) return false;
      void sockets.handleUpgrade(req, socket, head).catch(() => socket.destroy());
      return true;
    },
    close: () => sockets.close(),
  };
}
