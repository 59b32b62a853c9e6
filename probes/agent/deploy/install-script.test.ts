// The installer's refusals: every bad option is named before anything is downloaded or written.
// A fake server URL that cannot answer guards the host: a check that let an option through would
// stop at the download, never at an install.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { findOnPath } from "../../profile/exec-tool";

const script = path.join(__dirname, "install.sh");
const TOKEN = "pbr_abcdefghijklmnop";
const run = (...args: string[]) => {
  const r = spawnSync("sh", [script, ...args], { encoding: "utf8" });
  return { code: r.status, err: r.stderr, out: r.stdout };
};
const server = ["--server", "http://127.0.0.1:9"];

describe("install.sh option checks", () => {
  it.each([
    [["--bogus"], "unknown option --bogus"],
    [["--token"], "--token needs a value"],
    [[...server], "--token is required"],
    [["--token", "a b c d e f g h", ...server], "--token must be the token as shown"],
    [["--token", "short", ...server], "--token does not look like a registration token"],
    [["--token", TOKEN], "--server is required"],
    [["--token", TOKEN, "--server", "ftp://x"], "--server must be an http:// or https:// URL"],
    [["--token", TOKEN, "--server", "http://a$(id)"], "--server must be a plain URL"],
    [["--token", TOKEN, ...server, "--allow", "srv/x"], "--allow srv/x: give an absolute path"],
    [["--token", TOKEN, ...server, "--allow", "/srv/a b"], "--allow /srv/a b: only letters"],
    [["--token", TOKEN, ...server, "--allow", "/srv/../etc"], "--allow /srv/../etc: no . or .. components"],
    [["--token", TOKEN, ...server, "--allow", "/"], "--allow /: choose a directory"],
    [["--token", TOKEN, ...server, "--allow", "/var/lib/probebook-agent/x"], "not inside the agent's own"],
    [["--token", TOKEN, ...server, "--allow", `${script}`], "exists and is not a directory"],
    [["--upgrade", "--token", TOKEN, ...server], "--upgrade keeps the agent's registration: leave out --token"],
  ])("%j → %s", (args, message) => {
    const r = run(...args);
    expect(r.err).toContain(message);
    expect(r.code).toBe(1);
  });

  it("--upgrade on a host without an installed agent says to install it first", ({ skip }) => {
    skip(existsSync("/usr/local/bin/probebook-agent"), "an agent is installed on this machine");
    const r = run("--upgrade", ...server);
    expect(r.err).toContain("--upgrade: no agent is installed here (/usr/local/bin/probebook-agent, /etc/systemd/system/probebook-agent.service); install it with --token first");
    expect(r.code).toBe(1);
  });

  it("--help says how to install, upgrade and uninstall", () => {
    const r = run("--help");
    expect(r.code).toBe(0);
    expect(r.out).toContain("--upgrade");
    expect(r.out).toContain("--uninstall");
    expect(r.out).toContain("--allow DIRS");
  });

  it("is clean for shellcheck as POSIX sh", async ({ skip }) => {
    skip(!(await findOnPath("shellcheck", process.env.PATH)), "shellcheck is not installed");
    const r = spawnSync("shellcheck", ["-s", "sh", script], { encoding: "utf8" });
    expect(r.stdout + r.stderr).toBe("");
    expect(r.status).toBe(0);
  });
});
