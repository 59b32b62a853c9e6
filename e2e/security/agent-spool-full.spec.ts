// A real agent whose state directory (its spool) is on a full file system: a 64 KiB tmpfs, filled
// after the agent registered. Runs launched through the API must finish as what they were — not
// LOST with "the agent stopped reporting" — with the spool failure on the run page, and leave no
// run directory behind. Needs root (mount); skipped otherwise.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "../fixtures";
import { startAgent, type AgentHandle } from "../agent/agent-process";
import { adminCli, bearer, signInAs } from "../helpers";

const isRoot = process.getuid?.() === 0;
let agent: AgentHandle | null = null;
let stateDir = "";
let mounted = false;

test.describe.configure({ mode: "serial" });
test.skip(!isRoot, "mounting the small tmpfs needs root");

test.afterAll(async () => {
  await agent?.stop();
  if (mounted) execFileSync("umount", [stateDir]);
  if (stateDir) fs.rmSync(stateDir, { recursive: true, force: true });
  if (agent) fs.rmSync(agent.scratch, { recursive: true, force: true });
});

/** Writes until ENOSPC: not one more byte fits in the agent's state directory. */
function fill(dir: string): void {
  const file = path.join(dir, "filler");
  for (const block of [Buffer.alloc(4096, 1), Buffer.from("x")]) {
    try {
      for (let i = 0; i < 1000; i++) fs.writeFileSync(file, block, { flag: "a" });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOSPC") throw err;
    }
  }
}

const SPOOL_NOTE = /could not write this run's spool.*no space left on device.*delivered from memory only/i;

test("runs of an agent whose state directory is full finish as they ended, with the spool failure on the run", async ({ page, request, baseURL }) => {
  test.setTimeout(120_000);
  const user = await signInAs(page, "operator");
  const minted = await adminCli(["token", "create", "--email", user.email, "--name", "e2e"]);
  expect(minted.code).toBe(0);
  const token = minted.stdout.trim();

  stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "pb-full-state-"));
  execFileSync("mount", ["-t", "tmpfs", "-o", "size=64k,mode=0700", "tmpfs", stateDir]);
  mounted = true;

  const created = await request.post("/api/hosts", { headers: bearer(token), data: { name: `full-state-${Date.now()}` } });
  expect(created.status()).toBe(201);
  const { id: hostId, registrationToken } = (await created.json()) as { id: string; registrationToken: string };
  agent = startAgent({ server: baseURL!, token: registrationToken, stateDir });
  await expect.poll(() => agent!.output(), { timeout: 30_000 }).toContain("registered as host");
  const scratch = agent.scratch;
  fill(stateDir);

  for (const [probe, params, output] of [
    ["dd", { target: scratch, sizeMiB: 4, blockSizeKiB: 1024 }, /4\+0 records out/],
    ["sar", { target: scratch, sections: ["u"], interval: 1, count: 2 }, /Average:\s+all/],
  ] as const) {
    const launched = await request.post("/api/runs", { headers: bearer(token), data: { hostId, probe, params } });
    expect(launched.status()).toBe(201);
    const { id } = (await launched.json()) as { id: string };
    await expect
      .poll(async () => ((await (await request.get(`/api/runs/${id}`, { headers: bearer(token) })).json()) as { status: string }).status, { timeout: 60_000 })
      .toMatch(/^(SUCCEEDED|FAILED|CANCELLED|LOST)$/);
    const run = (await (await request.get(`/api/runs/${id}`, { headers: bearer(token) })).json()) as { status: string; error: string | null; warnings: string[] };
    expect(run.status, `${probe}: ${run.error ?? ""}\n${agent.output()}`).toBe("SUCCEEDED");
    expect(run.error).toBeNull();
    expect(run.warnings.join("\n")).toMatch(SPOOL_NOTE);
    expect(await (await request.get(`/api/runs/${id}/log`, { headers: bearer(token) })).text()).toMatch(output);

    // The operator sees why on the run page.
    await page.goto(`/runs/${id}`);
    await expect(page.getByTestId("run-warnings")).toContainText(/could not write this run's spool/);
    await expect(page.getByTestId("run-warnings")).toContainText(/no space left on device/i);

    // No run directory left in the target, nothing left in the spool.
    expect(fs.readdirSync(scratch).filter((n) => n.startsWith("probebook-run-"))).toEqual([]);
    const spool = path.join(stateDir, "spool");
    expect(fs.existsSync(spool) ? fs.readdirSync(spool) : []).toEqual([]);
  }
  expect(agent.output()).toMatch(/ENOSPC|no space left on device/i);
});
