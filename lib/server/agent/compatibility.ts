// Which agents this server works with. The policy (ARCHITECTURE.md, probes/agent/deploy/README.md):
// the server accepts agents that speak its protocol version or the one before, and whose release
// is at least MIN_AGENT_VERSION; others are refused at register and whenever they report their
// capabilities (each start), with HTTP 426 and a message naming both versions and the way to
// upgrade. Agents older than the server's own release but still compatible work, and the host
// pages mark them "outdated".
import { AGENT_VERSION } from "../../../probes/agent/version";
import { AGENT_PROTOCOL_VERSION, LEGACY_AGENT_PROTOCOL_VERSION } from "../../../probes/protocol/version";
import { AppError } from "../../http/app-error";

/** The agent release this server ships (what /agent/install.sh installs). */
export const CURRENT_AGENT_VERSION = AGENT_VERSION;
/** The oldest agent release accepted: raise it when the server stops working with older agents. */
export const MIN_AGENT_VERSION = "0.1.0";

export interface AgentPolicy {
  protocol: { min: number; max: number };
  minAgentVersion: string;
  currentAgentVersion: string;
}

/** The current protocol and the one before; protocol 1 is the first there is. */
export const AGENT_POLICY: AgentPolicy = {
  protocol: { min: Math.max(1, AGENT_PROTOCOL_VERSION - 1), max: AGENT_PROTOCOL_VERSION },
  minAgentVersion: MIN_AGENT_VERSION,
  currentAgentVersion: CURRENT_AGENT_VERSION,
};

/** x.y.z as numbers; null for anything else (a development or test build: not compared). */
export function parseAgentVersion(v: string | null | undefined): [number, number, number] | null {
  const m = /^v?(\d{1,6})\.(\d{1,6})\.(\d{1,6})(?:[-+][0-9A-Za-z.-]*)?$/.exec(v ?? "");
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : null;
}

/** Negative when a < b, 0 when equal, positive when a > b; null when either is not x.y.z. */
export function compareAgentVersions(a: string | null | undefined, b: string | null | undefined): number | null {
  const x = parseAgentVersion(a);
  const y = parseAgentVersion(b);
  if (!x || !y) return null;
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return 0;
}

/** Whether a host's agent is older than the release this server ships (the host pages' badge). */
export function agentIsOutdated(version: string | null | undefined, policy: AgentPolicy = AGENT_POLICY): boolean {
  const c = compareAgentVersions(version, policy.currentAgentVersion);
  return c !== null && c < 0;
}

/** The installer's --upgrade keeps the registration; the agent adds the line with its own --server. */
const UPGRADE_AGENT = "Upgrade the agent: on the host, run this server's installer with --upgrade (curl -fsSL <server>/agent/install.sh | sudo sh -s -- --upgrade); an agent run from a checkout: update the checkout and start it again.";

/** Why this server refuses an agent, or null when it works with it. */
export function agentIncompatibility(
  reported: { agentVersion: string; protocolVersion?: number },
  policy: AgentPolicy = AGENT_POLICY,
): string | null {
  const protocol = reported.protocolVersion ?? LEGACY_AGENT_PROTOCOL_VERSION;
  const { min, max } = policy.protocol;
  const range = min === max ? `protocol ${max}` : `protocol ${min} to ${max}`;
  const agent = `This agent (probebook-agent ${reported.agentVersion}, protocol ${protocol})`;
  const server = `this server (its agent is ${policy.currentAgentVersion}, protocol ${max})`;
  if (protocol > max) {
    return `${agent} is newer than ${server}, which accepts ${range}. Upgrade the Probebook server, or install the agent this server ships with its installer's --upgrade (curl -fsSL <server>/agent/install.sh | sudo sh -s -- --upgrade).`;
  }
  if (protocol < min) return `${agent} is too old for ${server}, which accepts ${range}. ${UPGRADE_AGENT}`;
  const belowMin = compareAgentVersions(reported.agentVersion, policy.minAgentVersion);
  if (belowMin !== null && belowMin < 0) {
    return `${agent} is too old for ${server}, which accepts agents from ${policy.minAgentVersion} on. ${UPGRADE_AGENT}`;
  }
  return null;
}

/** Throws the 426 that refuses an incompatible agent. */
export function assertAgentCompatible(reported: { agentVersion: string; protocolVersion?: number }): void {
  const why = agentIncompatibility(reported);
  if (why) throw new AppError("UPGRADE_REQUIRED", why);
}

/** The columns a report of the agent's capabilities writes on its host. */
export function reportedAgent(reported: { agentVersion: string; protocolVersion?: number }): { agentVersion: string; agentProtocolVersion: number } {
  return { agentVersion: reported.agentVersion, agentProtocolVersion: reported.protocolVersion ?? LEGACY_AGENT_PROTOCOL_VERSION };
}
