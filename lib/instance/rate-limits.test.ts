import { describe, expect, it } from "vitest";
import { RateLimits } from "./rate-limits";

describe("RateLimits", () => {
  it("allows an agent 3,000 requests a minute, then says how long to wait; other agents are counted apart", async () => {
    const limits = new RateLimits();
    for (let i = 0; i < 3000; i++) expect(await limits.consume("agentRequests", "agent-a")).toBeNull();
    const wait = await limits.consume("agentRequests", "agent-a");
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60_000);
    expect(await limits.consume("agentRequests", "agent-b")).toBeNull();
  });
});
