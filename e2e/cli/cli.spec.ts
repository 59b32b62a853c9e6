import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "../fixtures";
import { startAgent, type AgentHandle } from "../agent/agent-process";
import { apiTokenFor, bearer } from "../helpers";

const root = path.resolve(__dirname, "..", "..");

/** `npx probebook …` as a script would run it: the package's bin, a real process, its exit code. */
function cli(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(root, "bin", "probebook.cjs"), ...args], { cwd: root, env: { ...process.env, ...env }, timeout: 90_000, maxBuffer: 16 * 2 ** 20 }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === "number" ? ((err as { code: number }).code) : -1) : 0;
      resolve({ code, stdout, stderr });
    });
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
  const r = await cli(["run", "--server", server, "--token", token, "--host", hostName, "--preset", "dd:write-buffered", "--param", "sizeMiB=8", "--target", agent!.scratch, "--wait", "--json"]);
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
  const r = await cli(["run", "--server", server, "--token", token, "--host", hostName, "--preset", "dd:read-direct", "--param", "sizeMiB=8", "--target", path.join(agent!.scratch, "no-such-dir"), "--wait"]);
  expect(r.stderr).toMatch(/: failed/);
  expect(r.stderr).toContain("does not exist");
  expect(r.code).toBe(1);
});

test("runs list, tags, export and compare go through the same API", async ({ request }) => {
  const listed = await cli(["runs", "list", "--server", server, "--token", token, "--host", hostName, "--json"]);
  expect(listed.code).toBe(0);
  const { runs } = JSON.parse(listed.stdout) as { runs: { id: string; status: string }[] };
  const ok = runs.filter((r) => r.status === "SUCCEEDED");
  expect(ok.length).toBeGreaterThanOrEqual(2);
  const tagged = await request.patch(`/api/runs/${ok[0]!.id}`, { headers: bearer(token), data: { tags: ["CLI-Test", "nightly"] } });
  expect(tagged.status()).toBe(200);
  expect(((await tagged.json()) as { tags: string[] }).tags).toEqual(["cli-test", "nightly"]);
  const byTag = await cli(["runs", "list", "--server", server, "--token", token, "--tag", "cli-test"]);
  expect(byTag.code).toBe(0);
  expect(byTag.stdout).toContain(ok[0]!.id);
  expect(byTag.stdout).not.toContain(ok[1]!.id);

  const csv = await cli(["export", ok[0]!.id, "--format", "csv", "--server", server, "--token", token]);
  expect(csv.code).toBe(0);
  expect(csv.stdout.split("\n")[0]).toMatch(/metric/i);
  const json = await cli(["export", ok[0]!.id, "--server", server, "--token", token]);
  expect((JSON.parse(json.stdout) as { id: string }).id).toBe(ok[0]!.id);

  const side = await cli(["compare", ok[0]!.id, ok[1]!.id, "--server", server, "--token", token]);
  expect(side.code).toBe(0);
  expect((JSON.parse(side.stdout) as { runs: unknown[] }).runs).toHaveLength(2);
  const shared = await cli(["compare", ok[0]!.id, ok[1]!.id, "--share", "--title", "cli share", "--server", server, "--token", token]);
  expect(shared.code).toBe(0);
  expect(shared.stdout.trim()).toMatch(/\/c\/[A-Za-z0-9_-]{32}$/);
  expect((await request.get(`/api/comparisons/${shared.stdout.trim().split("/").pop()}`)).status()).toBe(200);
});

test("bad arguments exit 2 with a message that says what to do; server refusals exit 5", async () => {
  const noToken = await cli(["run", "--server", server, "--host", hostName, "--preset", "dd:write-direct"], { PROBEBOOK_TOKEN: "" });
  expect(noToken.code).toBe(2);
  expect(noToken.stderr).toContain("PROBEBOOK_TOKEN");
  const badPreset = await cli(["run", "--server", server, "--token", token, "--host", hostName, "--preset", "dd:nope"]);
  expect(badPreset.code).toBe(2);
  expect(badPreset.stderr).toContain("dd:write-direct");
  const badParam = await cli(["run", "--server", server, "--token", token, "--host", hostName, "--preset", "dd:write-direct", "--param", "sizeMiB=-3"]);
  expect(badParam.code).toBe(2);
  expect(badParam.stderr).toContain("sizeMiB");
  const noHost = await cli(["run", "--server", server, "--token", token, "--host", "no-such-host-xyz", "--preset", "dd:write-direct"]);
  expect(noHost.code).toBe(2);
  expect(noHost.stderr).toContain(hostName);
  const unknownOption = await cli(["export", "--frmat", "csv"]);
  expect(unknownOption.code).toBe(2);
  const badToken = await cli(["runs", "list", "--server", server, "--token", "pbt_not-a-real-token"]);
  expect(badToken.code).toBe(5);
  expect(badToken.stderr).toContain("401");
});
