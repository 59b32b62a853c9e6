import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseCli, type CliResult } from "./cli";

const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), "probebook-cli-")));
const a = path.join(root, "a");
const b = path.join(root, "b");
mkdirSync(a);
mkdirSync(b);
writeFileSync(path.join(root, "file"), "");
symlinkSync(a, path.join(root, "link-to-a"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const token = "abcdefghij-token";
const parse = (args: string[], env: Record<string, string> = {}) => parseCli(args, env, "/home/probe");
const error = (r: CliResult) => (r.kind === "error" ? r.message : `not an error: ${JSON.stringify(r)}`);

describe("parseCli", () => {
  it("reads the token from --token-file or PROBEBOOK_AGENT_TOKEN, keeping it out of argv", () => {
    const file = path.join(root, "token");
    writeFileSync(file, `${token}\n`, { mode: 0o600 });
    const ok = (r: CliResult) => (r.kind === "run" ? r.options.token : error(r));
    expect(ok(parse(["--server", "http://h", "--allow", a, "--token-file", file]))).toBe(token);
    expect(ok(parse(["--server", "http://h", "--allow", a], { PROBEBOOK_AGENT_TOKEN: token }))).toBe(token);
    expect(error(parse(["--server", "http://h", "--allow", a, "--token-file", path.join(root, "missing")]))).toBe(`--token-file ${path.join(root, "missing")}: ENOENT`);
  });

  it("parses a full command line", () => {
    expect(parse(["--server", "https://pb.example.com/", "--token", token, "--allow", `${a},${b}`, "--state-dir", "/var/lib/pb", "--once", "--quiet"])).toEqual({
      kind: "run",
      options: { server: "https://pb.example.com", token, allow: [a, b], stateDir: "/var/lib/pb", once: true, quiet: true, lab: null, labDevices: [], allowTunables: [], history: null, telemetry: true, transport: "auto", stopGraceSec: 60 },
    });
  });

  it("reads --lab and --allow-tunable (repeated or comma-separated), refusing names outside the catalogue", () => {
    const base = ["--server", "http://h", "--allow", a, "--state-dir", "/var/lib/pb"];
    const r = parse([...base, "--lab", b, "--allow-tunable", "vm.dirty_ratio,vm.drop_caches", "--allow-tunable", "queue/scheduler"]);
    expect(r.kind === "run" && [r.options.lab, r.options.allowTunables]).toEqual([b, ["vm.dirty_ratio", "vm.drop_caches", "queue/scheduler"]]);
    expect(error(parse([...base, "--allow-tunable", "kernel.core_pattern"]))).toMatch(/^--allow-tunable: unknown tunable kernel\.core_pattern: choose from vm\.dirty_ratio, /);
    expect(error(parse(["--server", "http://h", "--allow", a, "--lab", b, "--state-dir", path.join(b, "state")]))).toBe(
      `--state-dir ${path.join(b, "state")} must not be inside the --lab directory`,
    );
  });

  it("reads --lab-device (repeated or comma-separated), which needs --lab and absolute paths, and warns in --help", () => {
    const base = ["--server", "http://h", "--allow", a, "--state-dir", "/var/lib/pb"];
    const r = parse([...base, "--lab", b, "--lab-device", "/dev/vdb,/dev/vdc", "--lab-device", "/dev/vdb"]);
    expect(r.kind === "run" && r.options.labDevices).toEqual(["/dev/vdb", "/dev/vdc"]);
    expect(error(parse([...base, "--lab-device", "/dev/vdb"]))).toMatch(/^--lab-device needs --lab DIR too/);
    expect(error(parse([...base, "--lab", b, "--lab-device", "vdb"]))).toMatch(/^--lab-device vdb: give the device's absolute path/);
    const help = parse(["--help"]);
    expect(help.kind === "help" && help.text).toMatch(/--lab-device DEV[\s\S]*DESTROYS ALL DATA ON DEV/);
  });

  it("resolves --allow to real paths, repeated or comma-separated, without duplicates", () => {
    const r = parse(["--server", "http://h:3000", "--allow", path.join(root, "link-to-a"), "--allow", `${a}, ${b}/`]);
    expect(r.kind === "run" && r.options.allow).toEqual([a, b]);
    const off = parse(["--server", "https://pb.example.com", "--allow", a, "--no-telemetry"]);
    expect(off.kind === "run" && off.options.telemetry).toBe(false);
    const rel = parseCli(["--server", "http://h", "--allow", "."], {}, "/home/probe");
    expect(rel.kind === "run" && rel.options.allow).toEqual([realpathSync(process.cwd())]);
  });

  it("reads --stop-grace SECONDS (default 60, 0 allowed) and names the flag for anything else", () => {
    const base = ["--server", "http://h", "--allow", a];
    const grace = (r: CliResult) => (r.kind === "run" ? r.options.stopGraceSec : error(r));
    expect(grace(parse(base))).toBe(60);
    expect(grace(parse([...base, "--stop-grace", "0"]))).toBe(0);
    expect(grace(parse([...base, "--stop-grace=300"]))).toBe(300);
    for (const bad of ["-1", "1.5", "soon", "86401"]) {
      expect(error(parse([...base, `--stop-grace=${bad}`]))).toBe(`--stop-grace must be a whole number of seconds from 0 to 86400, not "${bad}"`);
    }
    const help = parse(["--help"]);
    expect(help.kind === "help" && help.text).toMatch(/--stop-grace SECONDS[\s\S]*second Ctrl-C[\s\S]*stops the probe \(within 2 s\) and exits at[\s\S]*once[\s\S]*spool/);
  });

  it("reads --transport auto|socket|http (default auto) and names the flag for anything else", () => {
    const base = ["--server", "http://h", "--allow", a];
    const transport = (r: CliResult) => (r.kind === "run" ? r.options.transport : error(r));
    expect(transport(parse(base))).toBe("auto");
    expect(transport(parse([...base, "--transport", "socket"]))).toBe("socket");
    expect(transport(parse([...base, "--transport=http"]))).toBe("http");
    expect(error(parse([...base, "--transport", "websocket"]))).toBe('--transport must be auto, socket or http, not "websocket"');
    const help = parse(["--help"]);
    expect(help.kind === "help" && help.text).toMatch(/--transport MODE[\s\S]*auto \(default[\s\S]*socket[\s\S]*http/);
  });

  it("defaults the state dir from the environment, then ~/.local/state", () => {
    const base = ["--server", "http://h", "--allow", a];
    expect(parse(base).kind === "run" && (parse(base) as { options: { stateDir: string } }).options.stateDir).toBe("/home/probe/.local/state/probebook-agent");
    const r = parse(base, { PROBEBOOK_AGENT_STATE_DIR: "/srv/pb-state" });
    expect(r.kind === "run" && r.options.stateDir).toBe("/srv/pb-state");
  });

  it("takes the token from PROBEBOOK_AGENT_TOKEN, and runs without one (registered hosts)", () => {
    const r = parse(["--server", "http://h", "--allow", a], { PROBEBOOK_AGENT_TOKEN: token });
    expect(r.kind === "run" && r.options.token).toBe(token);
    const none = parse(["--server", "http://h", "--allow", a]);
    expect(none.kind === "run" && none.options.token).toBeNull();
  });

  it("shows help and the version", () => {
    expect(parse(["--help"])).toMatchObject({ kind: "help", text: expect.stringMatching(/--allow DIR/) });
    expect(parse(["-h"]).kind).toBe("help");
    expect(parse(["--version"])).toMatchObject({ kind: "help", text: expect.stringMatching(/^probebook-agent \d+\.\d+\.\d+$/) });
  });

  it.each([
    [[], "--server is required (the dashboard's URL)"],
    [["--server", "probebook.local", "--allow", a], '--server must be a URL such as https://probebook.example.com, not "probebook.local"'],
    [["--server", "ftp://h", "--allow", a], "--server must use http or https, not ftp"],
    [["--server", "http://u:p@h", "--allow", a], "--server must not carry a user name or password"],
    [["--server", "http://h?x=1", "--allow", a], "--server must not have a query or fragment"],
    [["--server", "http://h"], "--allow is required: the directories probes may write in"],
    [["--server", "http://h", "--allow", ","], "--allow is required: the directories probes may write in"],
    [["--server", "http://h", "--allow", "/nonexistent/dir"], "--allow /nonexistent/dir: no such directory"],
    [["--server", "http://h", "--allow", path.join(root, "file")], `--allow ${path.join(root, "file")}: not a directory`],
    [["--server", "http://h", "--allow", a, "--token", "short"], "--token does not look like a registration token (10 to 200 characters)"],
    [["--server", "http://h", "--allow", a, "--state-dir", path.join(a, "state")], `--state-dir ${path.join(a, "state")} must not be inside an --allow directory`],
    [["--server", "http://h", "--allow", a, "--frobnicate"], "Unknown option '--frobnicate'"],
    [["--server", "http://h", "--allow", a, "extra"], "Unexpected argument 'extra'. This command does not take positional arguments"],
    [["--server"], "Option '--server <value>' argument missing"],
  ])("refuses %j", (args, message) => {
    expect(error(parse(args))).toBe(message);
  });
});

describe("parseCli --history", () => {
  const base = ["--server", "http://h", "--allow", a];
  const dirs = (r: CliResult) => (r.kind === "run" ? r.options.history : error(r));
  it("takes an optional DIR: bare means sysstat's default dirs, also before another option", () => {
    expect(dirs(parse(base))).toBeNull();
    expect(dirs(parse([...base, "--history"]))).toEqual(["/var/log/sa", "/var/log/sysstat"]);
    expect(dirs(parse(["--history", ...base]))).toEqual(["/var/log/sa", "/var/log/sysstat"]);
    expect(dirs(parse([...base, "--history", path.join(root, "link-to-a"), "--history", b]))).toEqual([a, b]);
    expect(dirs(parse([...base, "--history=" + b]))).toEqual([b]);
  });
  it("refuses a DIR that is missing or a file, naming the flag", () => {
    expect(error(parse([...base, "--history", path.join(root, "missing")]))).toBe(`--history ${path.join(root, "missing")}: no such directory`);
    expect(error(parse([...base, "--history", path.join(root, "file")]))).toBe(`--history ${path.join(root, "file")}: not a directory`);
  });
});

describe("parseCli --install-tools", () => {
  it("stands alone: no --server or --allow needed, and --help lists it", () => {
    expect(parse(["--install-tools"])).toEqual({ kind: "install-tools", lab: false });
    // With the lab's flag (as in the agent's usual command line) the lab's mkfs tools are wanted too.
    expect(parse(["--install-tools", "--lab", "/srv/lab"])).toEqual({ kind: "install-tools", lab: true });
    const help = parse(["--help"]);
    expect(help.kind === "help" && help.text).toContain("--install-tools");
  });
});
