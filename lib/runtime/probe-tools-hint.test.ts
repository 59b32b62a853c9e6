import { mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findOnPath } from "../../probes/profile/exec-tool";
import { parseOsRelease, PROBE_TOOLS } from "../../probes/profile/install-commands";
import { probeToolsHint } from "./probe-tools-hint";

const osr = (name: string) => parseOsRelease(readFileSync(path.join(__dirname, "..", "..", "probes", "profile", "fixtures", name), "utf8"));
let onlyDd = "";

beforeAll(async () => {
  // A PATH with dd alone: iozone, sar, sadf and fio are really absent from it.
  onlyDd = mkdtempSync(path.join(os.tmpdir(), "pb-only-dd-"));
  const dd = await findOnPath("dd");
  if (dd) symlinkSync(dd, path.join(onlyDd, "dd"));
});
afterAll(() => {
  if (onlyDd) rmSync(onlyDd, { recursive: true, force: true });
});

describe("npm start's probe-tools hint", () => {
  it("names the missing tools and this distribution's command; as root it offers --install-tools", async () => {
    const lines = await probeToolsHint(onlyDd, true, osr("os-release.txt"));
    expect(lines[0]).toBe("the local agent lacks iozone, sar, sadf, fio: those probes cannot run on this machine until they are installed");
    expect(lines[1]).toBe(
      "  install them with: sed -i -E '/^Components:/{/ non-free( |$)/!s/$/ non-free/}' /etc/apt/sources.list.d/debian.sources && apt-get update && apt-get install -y iozone3 sysstat fio",
    );
    expect(lines).toContain("  or let the agent do it now: npm run agent -- --install-tools");
    // Re-check works on a running agent: the hint must not send people to restart npm start.
    expect(lines.at(-1)).toBe("  after installing, press Re-check tools on this machine's host page: the local agent reports its tools again, no restart needed");
    expect(lines.join("\n")).not.toMatch(/restart npm start/);
  });

  it("without root: sudo in the command and no --install-tools offer", async () => {
    const lines = await probeToolsHint(onlyDd, false, osr("hand-os-release-fedora-41.txt"));
    expect(lines[1]).toMatch(/^ {2}install them with: sudo dnf install -y sysstat fio; iozone is not packaged for Fedora/);
    expect(lines.join("\n")).not.toContain("--install-tools");
  });

  it("says nothing when every probe tool is on PATH", async ({ skip }) => {
    const found = await Promise.all(PROBE_TOOLS.map((t) => findOnPath(t)));
    skip(found.includes(null), "needs all probe tools installed (npm test's pre-check installs them)");
    expect(await probeToolsHint(process.env.PATH, true)).toEqual([]);
  });
});
