import pkg from "../../../package.json";
import { AGENT_POLICY, MIN_AGENT_VERSION } from "../agent/compatibility";
import { AGENT_PROTOCOL_VERSION } from "../../../probes/protocol/version";
import { newestShippedMigration } from "./check-readiness";

export interface ServiceVersion {
  server: string;
  /** The newest database migration this build ships: instances of one release agree on it. */
  schema: string | null;
  agent: {
    current: string;
    minimum: string;
    protocol: { current: number; accepted: { min: number; max: number } };
  };
}

/**
 * What this server is and which agents it works with, for upgrades: an operator compares the
 * instances' answers before and after a rolling upgrade, and an agent's refusal names the same
 * versions (lib/server/agent/compatibility.ts). Nothing here is about a host.
 */
export function getVersion(): ServiceVersion {
  return {
    server: pkg.version,
    schema: newestShippedMigration(),
    agent: {
      current: AGENT_POLICY.currentAgentVersion,
      minimum: MIN_AGENT_VERSION,
      protocol: { current: AGENT_PROTOCOL_VERSION, accepted: { ...AGENT_POLICY.protocol } },
    },
  };
}
