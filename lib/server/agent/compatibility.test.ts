import { describe, expect, it } from "vitest";
import { AGENT_VERSION } from "../../../probes/agent/version";
import { AGENT_PROTOCOL_VERSION } from "../../../probes/protocol/version";
import { AGENT_POLICY, agentIncompatibility, agentIsOutdated, compareAgentVersions, type AgentPolicy } from "./compatibility";

// A server two protocol versions on: it accepts protocol 2 and 3, agents from 0.3.0, and ships 0.5.1.
const later: AgentPolicy = { protocol: { min: 2, max: 3 }, minAgentVersion: "0.3.0", currentAgentVersion: "0.5.1" };

describe("agent compatibility policy", () => {
  it("accepts the current protocol and the one before, and the server's own agent", () => {
    expect(AGENT_POLICY.protocol).toEqual({ min: Math.max(1, AGENT_PROTOCOL_VERSION - 1), max: AGENT_PROTOCOL_VERSION });
    expect(AGENT_POLICY.currentAgentVersion).toBe(AGENT_VERSION);
    expect(agentIncompatibility({ agentVersion: AGENT_VERSION, protocolVersion: AGENT_PROTOCOL_VERSION })).toBeNull();
    expect(agentIncompatibility({ agentVersion: "0.4.0", protocolVersion: 2 }, later)).toBeNull();
    expect(agentIncompatibility({ agentVersion: "0.5.1", protocolVersion: 3 }, later)).toBeNull();
  });

  it("takes an agent that reports no protocol version as protocol 1, as every agent before the field spoke", () => {
    expect(agentIncompatibility({ agentVersion: "0.1.0" })).toBeNull();
    expect(agentIncompatibility({ agentVersion: "0.4.0" }, later)).toBe(
      "This agent (probebook-agent 0.4.0, protocol 1) is too old for this server (its agent is 0.5.1, protocol 3), which accepts protocol 2 to 3. " +
        "Upgrade the agent: on the host, run this server's installer with --upgrade (curl -fsSL <server>/agent/install.sh | sudo sh -s -- --upgrade); an agent run from a checkout: update the checkout and start it again.",
    );
  });

  it("refuses an agent below the minimum release, naming both versions and the upgrade", () => {
    expect(agentIncompatibility({ agentVersion: "0.2.9", protocolVersion: 3 }, later)).toBe(
      "This agent (probebook-agent 0.2.9, protocol 3) is too old for this server (its agent is 0.5.1, protocol 3), which accepts agents from 0.3.0 on. " +
        "Upgrade the agent: on the host, run this server's installer with --upgrade (curl -fsSL <server>/agent/install.sh | sudo sh -s -- --upgrade); an agent run from a checkout: update the checkout and start it again.",
    );
    expect(agentIncompatibility({ agentVersion: "0.0.9", protocolVersion: AGENT_PROTOCOL_VERSION })).toMatch(/too old .* accepts agents from 0\.1\.0 on/);
  });

  it("refuses an agent newer than the server's protocol, saying to upgrade the server", () => {
    expect(agentIncompatibility({ agentVersion: "0.9.0", protocolVersion: 4 }, later)).toBe(
      "This agent (probebook-agent 0.9.0, protocol 4) is newer than this server (its agent is 0.5.1, protocol 3), which accepts protocol 2 to 3. " +
        "Upgrade the Probebook server, or install the agent this server ships with its installer's --upgrade (curl -fsSL <server>/agent/install.sh | sudo sh -s -- --upgrade).",
    );
  });

  it("does not compare versions that are not x.y.z (development and test builds)", () => {
    expect(compareAgentVersions("test", "0.1.0")).toBeNull();
    expect(agentIncompatibility({ agentVersion: "dev", protocolVersion: 3 }, later)).toBeNull();
    expect(agentIsOutdated("dev", later)).toBe(false);
    expect(agentIsOutdated(null, later)).toBe(false);
  });

  it("marks agents older than the server's own release outdated, numerically", () => {
    expect(compareAgentVersions("0.10.0", "0.9.1")).toBeGreaterThan(0);
    expect(compareAgentVersions("v1.2.3", "1.2.3-rc.1")).toBe(0);
    expect(agentIsOutdated("0.5.0", later)).toBe(true);
    expect(agentIsOutdated("0.5.1", later)).toBe(false);
    expect(agentIsOutdated("0.6.0", later)).toBe(false);
  });
});
