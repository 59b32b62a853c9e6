import { afterEach, describe, expect, it } from "vitest";
import { consoleToLog, createAppLog } from "./log";

const saved = { ...console };
afterEach(() => Object.assign(console, saved));

describe("the app's log", () => {
  it("writes pino JSON lines with the fields and the error's stack", () => {
    const lines: string[] = [];
    const l = createAppLog({ format: "json", level: "info" }, { write: (x) => lines.push(x) });
    l.debug("not at info");
    l.info("serving on port 3000", { port: 3000 });
    l.error("unhandled error in route handler", { requestId: "r1", err: new Error("boom") });
    const [a, b] = lines.map((x) => JSON.parse(x) as Record<string, unknown>);
    expect(lines).toHaveLength(2);
    expect(a).toMatchObject({ level: "info", msg: "serving on port 3000", port: 3000, pid: process.pid });
    expect(b).toMatchObject({ level: "error", requestId: "r1", err: { type: "Error", message: "boom" } });
  });

  it("keeps the plain lines in text, with LOG_LEVEL", () => {
    const lines: string[] = [];
    const l = createAppLog({ format: "text", level: "warn" }, { write: (x) => lines.push(x) });
    l.info("dropped");
    l.warn("database connection lost (reset); it will be reopened");
    expect(lines).toEqual(["[probebook] warn: database connection lost (reset); it will be reopened\n"]);
  });

  it("turns what others print through console into JSON lines in json mode, and leaves console alone in text", () => {
    const lines: string[] = [];
    const target = createAppLog({ format: "json", level: "debug" }, { write: (x) => lines.push(x) });
    consoleToLog({ LOG_FORMAT: "text" }, target);
    expect(console.log).toBe(saved.log);
    consoleToLog({ LOG_FORMAT: "json" }, target);
    console.log("✓ Running %s took %dms", "next.config.ts", 38);
    console.error("failed to render", new Error("page broke"));
    expect(lines.map((x) => JSON.parse(x) as Record<string, unknown>)).toEqual([
      expect.objectContaining({ level: "info", msg: "✓ Running next.config.ts took 38ms" }),
      expect.objectContaining({ level: "error", msg: "failed to render", err: expect.objectContaining({ message: "page broke" }) }),
    ]);
  });
});
