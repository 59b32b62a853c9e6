// The agent gateway: the agent protocol served in front of Next.js by the process's own HTTP
// server (scripts/serve.ts). HTTP requests to the agent routes and the agent socket's upgrades are
// taken here; everything else goes on to Next.js unchanged.
import { AGENT_SOCKET_PATH } from "../../probes/protocol/agent-socket";
import { handleAgentHttp } from "./agent-http";
import { AgentSocketServer } from "./agent-socket-server";
import type { Gateway } from "./bridge";

export function createGateway(): Gateway {
  const sockets = new AgentSocketServer();
  return {
    handleRequest: handleAgentHttp,
    handleUpgrade(req, socket, head) {
      if (req.url?.split("?")[0] !== AGENT_SOCKET_PATH) return false;
      void sockets.handleUpgrade(req, socket, head).catch(() => socket.destroy());
      return true;
    },
    close: () => sockets.close(),
  };
}
