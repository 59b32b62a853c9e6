import { describe, expect, it } from "vitest";
import { listenHostFrom, metricsTokenFrom, opsSettingsProblems, queueOfflineTimeoutMinFrom } from "./ops-settings";

describe("the operations variables", () => {
  it("take their defaults when unset or blank (compose passes unset variables as empty)", () => {
    for (const env of [{}, { HOST: "", LOG_FORMAT: "", LOG_LEVEL: " ", METRICS_TOKEN: "", QUEUE_OFFLINE_TIMEOUT_MIN: "" }]) {
      expect(opsSettingsProblems(env)).toEqual([]);
      expect(listenHostFrom(env)).toBeUndefined();
      expect(metricsTokenFrom(env)).toBeNull();
      expect(queueOfflineTimeoutMinFrom(env)).toBe(60);
    }
  });

  it("read good values", () => {
    expect(listenHostFrom({ HOST: "127.0.0.1" })).toBe("127.0.0.1");
    expect(listenHostFrom({ HOST: "::" })).toBe("::");
    expect(listenHostFrom({ HOST: "[::1]" })).toBe("::1");
    expect(listenHostFrom({ HOST: "localhost" })).toBe("localhost");
    expect(metricsTokenFrom({ METRICS_TOKEN: "0123456789abcdef0123" })).toBe("0123456789abcdef0123");
    expect(queueOfflineTimeoutMinFrom({ QUEUE_OFFLINE_TIMEOUT_MIN: "0" })).toBe(0);
    expect(queueOfflineTimeoutMinFrom({ QUEUE_OFFLINE_TIMEOUT_MIN: "15" })).toBe(15);
    expect(opsSettingsProblems({ LOG_FORMAT: "JSON", LOG_LEVEL: "Debug" })).toEqual([]);
  });

  it("refuse each bad value with a message naming its variable", () => {
    const cases: [Record<string, string>, string][] = [
      [{ HOST: "example.com" }, "HOST"],
      [{ HOST: "127.0.0.1:3000" }, "HOST"],
      [{ LOG_FORMAT: "xml" }, "LOG_FORMAT"],
      [{ LOG_LEVEL: "verbose" }, "LOG_LEVEL"],
      [{ METRICS_TOKEN: "short" }, "METRICS_TOKEN"],
      [{ METRICS_TOKEN: "has a space in it, sadly" }, "METRICS_TOKEN"],
      [{ QUEUE_OFFLINE_TIMEOUT_MIN: "-5" }, "QUEUE_OFFLINE_TIMEOUT_MIN"],
      [{ QUEUE_OFFLINE_TIMEOUT_MIN: "1.5" }, "QUEUE_OFFLINE_TIMEOUT_MIN"],
      [{ QUEUE_OFFLINE_TIMEOUT_MIN: "an hour" }, "QUEUE_OFFLINE_TIMEOUT_MIN"],
    ];
    for (const [env, name] of cases) {
      const problems = opsSettingsProblems(env);
      expect(problems, JSON.stringify(env)).toHaveLength(1);
      expect(problems[0]).toMatch(new RegExp(`^${name} must`));
    }
    expect(opsSettingsProblems({ HOST: "nowhere", LOG_LEVEL: "loud" })).toHaveLength(2);
  });
});
