import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import pkg from "../../../package.json";
import { AGENT_VERSION } from "../../../probes/agent/version";
import { AGENT_PROTOCOL_VERSION } from "../../../probes/protocol/version";
import { agentIncompatibility } from "../agent/compatibility";
import { getVersion } from "./get-version";

describe("getVersion (GET /api/version)", () => {
  it("names this release, its newest migration and the agent it ships", () => {
    const v = getVersion();
    expect(v.server).toBe(pkg.version);
    const migrations = fs.readdirSync(path.join(process.cwd(), "prisma", "migrations")).filter((n) => /^\d{14}_/.test(n)).sort();
    expect(v.schema).toBe(migrations.at(-1));
    expect(v.agent.current).toBe(AGENT_VERSION);
    expect(v.agent.protocol.current).toBe(AGENT_PROTOCOL_VERSION);
  });

  it("announces exactly the range the server enforces: the edges are accepted, one beyond is refused", () => {
    const { accepted } = getVersion().agent.protocol;
    const { minimum } = getVersion().agent;
    expect(agentIncompatibility({ agentVersion: minimum, protocolVersion: accepted.min })).toBeNull();
    expect(agentIncompatibility({ agentVersion: AGENT_VERSION, protocolVersion: accepted.max })).toBeNull();
    expect(agentIncompatibility({ agentVersion: AGENT_VERSION, protocolVersion: accepted.max + 1 })).toMatch(/newer than this server/);
    if (accepted.min > 1) expect(agentIncompatibility({ agentVersion: AGENT_VERSION, protocolVersion: accepted.min - 1 })).toMatch(/too old/);
  });
});
