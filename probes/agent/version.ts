/**
 * Reported in capabilities and logs; bump when the agent's behaviour or protocol use changes.
 * The server shows hosts whose agent is older than its own as outdated (lib/server/agent/compatibility.ts).
 * 0.2.0: a stop lets the running probe finish (--stop-grace); reports its protocol version.
 */
export const AGENT_VERSION = "0.2.0";
