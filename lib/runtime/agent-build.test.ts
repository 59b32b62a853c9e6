import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { agentBuildStaleReason, canBuildAgent } from "./agent-build";

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

function distWith(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pb-agent-dist-"));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  return dir;
}

describe.runIf(process.arch === "x64")("npm start's agent build check", () => {
  it("builds when there is no executable, when it is another release's, and not when it is this one's", () => {
    expect(agentBuildStaleReason(distWith({}), "0.2.0")).toBe("no agent executable yet");
    const exe = { "probebook-agent-linux-x64": "ELF" };
    expect(agentBuildStaleReason(distWith({ ...exe, "package.json": '{"version":"0.1.0"}' }), "0.2.0")).toBe("the agent executable is 0.1.0, this release's agent is 0.2.0");
    expect(agentBuildStaleReason(distWith(exe), "0.2.0")).toBe("the agent build has no package.json");
    expect(agentBuildStaleReason(distWith({ ...exe, "package.json": '{"version":"0.2.0"}' }), "0.2.0")).toBeNull();
  });

  it("can build in a checkout with its dev dependencies (postject)", () => {
    expect(canBuildAgent()).toBe(true);
  });
});
