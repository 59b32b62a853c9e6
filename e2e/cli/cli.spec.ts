import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "../fixtures";
import { startAgent, type AgentHandle } from "../agent/agent-process";
import { apiTokenFor, bearer } from "../helpers";
import { buildCli } from "../../scripts/build-cli";

const root = path.resolve(__dirname, "..", "..");

// A config home of the suite's own: never the user's ~/.config/probebook.
const configHome = fs.mkdtempSync(path.join(os.tmpdir(), "probebook-cli-e2e-"));

/**
 * `npx probebook …` as a script would run it: the package's bin, a real process, its exit code.
 * The token comes from PROBEBOOK_TOKEN (as the README says to pass it), unless `env` says otherwise.
 */
function cli(args: string[], env: Record<string, string> = {}, opts: { file?: string; cwd?: string; stdin?: string; plainEnv?: boolean } = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const base: Record<string, string | undefined> = opts.plainEnv ? { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: configHome } : { ...process.env, XDG_CONFIG_HOME: configHome, PROBEBOOK_TOKEN: token };
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [opts.file ?? path.join(root, "bin", "probebook.cjs"), ...args], { cwd: opts.cwd ?? root, env: { ...base, ...env } as NodeJS.ProcessEnv, timeout: 90_000, maxBuffer: 16 * 2 ** 20 }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === "number" ? ((err as { code: number }).code) : -1) : 0;
      resolve({ code, stdout, stderr });
    });
    child.stdin?.end(opts.stdin ?? "");
  });
}

let agent: AgentHandle | null = null;
let token = "";
let hostName = "";
let server = "";

test.describe.configure({ mode: "serial" });

test.beforeAll(async ({ request, baseURL }) => {
  server = baseURL!;
  token = await apiTokenFor("operator");
  hostName = `cli-host-${Date.now()}`;
  const created = await request.post("/api/hosts", { headers: bearer(token), data: { name: hostName } });
  expect(created.status()).toBe(201);
  const { id, registrationToken } = (await created.json()) as { id: string; registrationToken: string };
  agent = startAgent({ server, token: registrationToken });
  await expect
    .poll(async () => ((await (await request.get(`/api/hosts/${id}`, { headers: bearer(token) })).json()) as { capabilities: unknown }).capabilities, { timeout: 30_000 })
    .toBeTruthy();
});

test.afterAll(async () => {
  fs.rmSync(configHome, { recursive: true, force: true });
  await agent?.stop();
  if (agent) for (const dir of [agent.scratch, agent.stateDir]) fs.rmSync(dir, { recursive: true, force: true });
});

test("probebook run launches dd on a real agent, streams its output and exits 0", async ({ request }) => {
  const r = await cli(["run", "--server", server, "--host", hostName, "--preset", "dd:write-direct", "--param", "sizeMiB=16", "--target", agent!.scratch, "--wait"], { PROBEBOOK_TOKEN: token });
  expect(r.stderr).toMatch(/run [0-9a-f-]{36}: succeeded/);
  expect(r.code).toBe(0);
  // dd's own summary line came through the live stream.
  expect(r.stdout).toMatch(/16777216 bytes .* copied/);
  const id = /run ([0-9a-f-]{36}): succeeded/.exec(r.stderr)![1]!;
  const run = (await (await request.get(`/api/runs/${id}`, { headers: bearer(token) })).json()) as { status: string; probe: string };
  expect(run).toMatchObject({ status: "SUCCEEDED", probe: "dd" });
});

test("--json prints one JSON object per line: chunks, then the finished run", async () => {
  const r = await cli(["run", "--server", server, "--host", hostName, "--preset", "dd:write-buffered", "--param", "sizeMiB=8", "--target", agent!.scratch, "--wait", "--json"]);
  expect(r.code).toBe(0);
  const lines = r.stdout.trim().split("\n").map((l) => JSON.parse(l) as { event: string; data?: string; run?: { status: string; result: unknown } });
  expect(lines.filter((l) => l.event === "chunk").map((l) => l.data).join("")).toContain("copied");
  const end = lines.at(-1)!;
  expect(end.event).toBe("end");
  expect(end.run).toMatchObject({ status: "SUCCEEDED" });
  expect(end.run!.result).toBeTruthy();
});

test("a run the agent refuses exits non-zero (1) with the agent's reason", async () => {
  // Inside the allowed directory as far as the server can tell, but it does not exist: the agent refuses the job.
  const r = await cli(["run", "--server", server, "--host", hostName, "--preset", "dd:read-direct", "--param", "sizeMiB=8", "--target", path.join(agent!.scratch, "no-such-dir"), "--wait"]);
  expect(r.stderr).toMatch(/: failed/);
  expect(r.stderr).toContain("does not exist");
  expect(r.code).toBe(1);
});

test("runs list, tags, export and compare go through the same API", async ({ request }) => {
  const listed = await cli(["runs", "list", "--server", server, "--host", hostName, "--json"]);
  expect(listed.code).toBe(0);
  const { runs } = JSON.parse(listed.stdout) as { runs: { id: string; status: string }[] };
  const ok = runs.filter((r) => r.status === "SUCCEEDED");
  expect(ok.length).toBeGreaterThanOrEqual(2);
  const tagged = await request.patch(`/api/runs/${ok[0]!.id}`, { headers: bearer(token), data: { tags: ["CLI-Test", "nightly"] } });
  expect(tagged.status()).toBe(200);
  expect(((await tagged.json()) as { tags: string[] }).tags).toEqual(["cli-test", "nightly"]);
  const byTag = await cli(["runs", "list", "--server", server, "--tag", "cli-test"]);
  expect(byTag.code).toBe(0);
  expect(byTag.stdout).toContain(ok[0]!.id);
  expect(byTag.stdout).not.toContain(ok[1]!.id);

  const csv = await cli(["export", ok[0]!.id, "--format", "csv", "--server", server]);
  expect(csv.code).toBe(0);
  expect(csv.stdout.split("\n")[0]).toMatch(/metric/i);
  const json = await cli(["export", ok[0]!.id, "--server", server]);
  expect((JSON.parse(json.stdout) as { id: string }).id).toBe(ok[0]!.id);

  const side = await cli(["compare", ok[0]!.id, ok[1]!.id, "--server", server]);
  expect(side.code).toBe(0);
  expect((JSON.parse(side.stdout) as { runs: unknown[] }).runs).toHaveLength(2);
  const shared = await cli(["compare", ok[0]!.id, ok[1]!.id, "--share", "--title", "cli share", "--server", server]);
  expect(shared.code).toBe(0);
  expect(shared.stdout.trim()).toMatch(/\/c\/[A-Za-z0-9_-]{32}$/);
  expect((await request.get(`/api/comparisons/${shared.stdout.trim().split("/").pop()}`)).status()).toBe(200);
});

test("bad arguments exit 2 with a message that says what to do; server refusals exit 5", async () => {
  const noToken = await cli(["run", "--server", server, "--host", hostName, "--preset", "dd:write-direct"], { PROBEBOOK_TOKEN: "" });
  expect(noToken.code).toBe(2);
  expect(noToken.stderr).toContain("PROBEBOOK_TOKEN");
  const badPreset = await cli(["run", "--server", server, "--host", hostName, "--preset", "dd:nope"]);
  expect(badPreset.code).toBe(2);
  expect(badPreset.stderr).toContain("dd:write-direct");
  const badParam = await cli(["run", "--server", server, "--host", hostName, "--preset", "dd:write-direct", "--param", "sizeMiB=-3"]);
  expect(badParam.code).toBe(2);
  expect(badParam.stderr).toContain("sizeMiB");
  const noHost = await cli(["run", "--server", server, "--host", "no-such-host-xyz", "--preset", "dd:write-direct"]);
  expect(noHost.code).toBe(2);
  expect(noHost.stderr).toContain(hostName);
  const unknownOption = await cli(["export", "--frmat", "csv"]);
  expect(unknownOption.code).toBe(2);
  const badToken = await cli(["runs", "list", "--server", server], { PROBEBOOK_TOKEN: "pbt_not-a-real-token" });
  expect(badToken.code).toBe(5);
  expect(badToken.stderr).toContain("401");
});

test("an unknown --param is refused with exit 2 and the valid names, and the API refuses it too", async ({ request }) => {
  const r = await cli(["run", "--server", server, "--host", hostName, "--preset", "dd:write-direct", "--param", "sizemib=8", "--target", agent!.scratch]);
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(/unknown parameter sizemib \(did you mean sizeMiB\?\); valid: target, sizeMiB, /);
  const hosts = (await (await request.get("/api/hosts", { headers: bearer(token) })).json()) as { hosts: { id: string; name: string }[] };
  const hostId = hosts.hosts.find((h) => h.name === hostName)!.id;
  const api = await request.post("/api/runs", { headers: bearer(token), data: { hostId, probe: "dd", preset: "write-direct", params: { target: agent!.scratch, sizemib: 8 } } });
  expect(api.status()).toBe(400);
  expect(((await api.json()) as { fieldErrors: Record<string, string[]> }).fieldErrors["params.sizemib"]![0]).toContain("did you mean sizeMiB?");
});

test("login saves the server and token (0600) after checking it; later commands need neither flag nor variable", async () => {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "probebook-login-"));
  try {
    const env = { XDG_CONFIG_HOME: home, PROBEBOOK_TOKEN: "", PROBEBOOK_SERVER: "" };
    const wrong = await cli(["login", "--server", server, "--token-stdin"], env, { stdin: "pbt_not-a-real-token\n" });
    expect(wrong.code).toBe(5);
    expect(wrong.stderr).toContain("does not accept this token");
    expect(fs.existsSync(path.join(home, "probebook", "config.json"))).toBe(false);

    const ok = await cli(["login", "--server", `${server}/`, "--token-stdin"], env, { stdin: `${token}\n` });
    expect(ok.stderr).toMatch(/logged in to .* as .*@/);
    expect(ok.code).toBe(0);
    const file = path.join(home, "probebook", "config.json");
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const listed = await cli(["runs", "list", "--host", hostName, "--json"], env);
    expect(listed.code).toBe(0);
    expect((JSON.parse(listed.stdout) as { runs: unknown[] }).runs.length).toBeGreaterThan(0);
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
});

test("follow and cancel act on a run launched elsewhere; follow's exit code is the run's outcome", async () => {
  const queued = await cli(["run", "--server", server, "--host", hostName, "--preset", "sar:cpu", "--param", "count=120", "--target", agent!.scratch]);
  expect(queued.code).toBe(0);
  const id = queued.stdout.trim();
  expect(id).toMatch(/^[0-9a-f-]{36}$/);
  const cancelled = await cli(["cancel", id, "--server", server]);
  expect(cancelled.stderr).toMatch(new RegExp(`run ${id}: cancel`));
  expect(cancelled.code).toBe(0);
  const followed = await cli(["follow", id, "--server", server, "--timeout", "60"]);
  expect(followed.stderr).toContain(`run ${id}: cancelled`);
  expect(followed.code).toBe(3);
  // A run that has ended cannot be cancelled again: the server's refusal, exit 5.
  expect((await cli(["cancel", id, "--server", server])).code).toBe(5);
});

test("the one-file CLI, downloaded from the server, runs with plain Node outside the checkout", async ({ request }) => {
  await buildCli();
  const res = await request.get("/api/cli/probebook.cjs");
  expect(res.status()).toBe(200);
  const body = await res.body();
  expect(res.headers()["x-checksum-sha256"]).toBe(createHash("sha256").update(body).digest("hex"));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "probebook-bundle-"));
  try {
    const file = path.join(dir, "probebook.cjs");
    fs.writeFileSync(file, body);
    const version = await cli(["--version"], {}, { file, cwd: dir, plainEnv: true });
    expect(version).toMatchObject({ code: 0, stdout: expect.stringMatching(/^probebook \d+\.\d+\.\d+\n$/) });
    expect((await cli(["--help"], {}, { file, cwd: dir, plainEnv: true })).stdout).toContain("probebook follow");
    const listed = await cli(["runs", "list", "--host", hostName, "--json"], { PROBEBOOK_SERVER: server, PROBEBOOK_TOKEN: token }, { file, cwd: dir, plainEnv: true });
    expect(listed.code).toBe(0);
    expect((JSON.parse(listed.stdout) as { runs: unknown[] }).runs.length).toBeGreaterThan(0);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
