import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { Agent, type AgentDeps } from "./agent";
import { credentialPath } from "./credential-store";
import { memoryLogger } from "./logger";
import { FakeAgentServer } from "./testing/fake-server";
import { AGENT_VERSION } from "./version";
import { AGENT_PROTOCOL_VERSION } from "../protocol/version";

const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), "probebook-agent-")));
const allowed = path.join(root, "allowed");
mkdirSync(allowed);
afterAll(() => rmSync(root, { recursive: true, force: true }));

let server: FakeAgentServer;
let stateDir: string;
beforeEach(async () => {
  server = await new FakeAgentServer().start();
  stateDir = mkdtempSync(path.join(root, "state-"));
});
afterEach(() => server.close());

function agent(opts: { once?: boolean; token?: string | null } = {}, deps: Partial<AgentDeps> = {}) {
  const log = memoryLogger();
  const a = new Agent(
    { server: server.url, token: opts.token === undefined ? server.registrationToken : opts.token, allowDirs: [allowed], stateDir, once: opts.once ?? true },
    { log, claimWaitSec: 1, heartbeatIdleMs: 200, backoff: { baseMs: 5, capMs: 100 }, shutdownFlushMs: 2000, ...deps },
  );
  return { agent: a, log };
}

const ddJob = (target = allowed) => ({ runId: randomUUID(), probe: "dd", params: { target, sizeMiB: 4, blockSizeKiB: 1024 } });
const sarJob = () => ({ runId: randomUUID(), probe: "sar", params: { target: allowed, sections: ["u"], interval: 1, count: 30 } });

describe("Agent against a local HTTP server", () => {
  it("registers, claims a dd job, streams its output in order and finishes", async () => {
    const job = ddJob();
    server.jobs.push(job);
    const { agent: a, log } = agent({}, { heartbeatActiveMs: 50 });
    const exit = await a.run();
    expect(exit).toEqual({ code: 0, message: "done: one job was run (--once)" });

    // registration carried the profile and the capabilities
    expect(server.registrations).toHaveLength(1);
    expect(server.registrations[0]?.capabilities.tools.dd?.installed).toBe(true);
    expect(server.registrations[0]?.profile).toMatchObject({ targets: [{ path: allowed }] });
    const cred = credentialPath(stateDir);
    expect(statSync(cred).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(cred, "utf8"))).toMatchObject({ hostId: server.hostId, credential: server.credential });

    // contiguous seqs from 0, whose concatenation holds dd's summary
    const fin = server.finishes.get(job.runId);
    const seqs = server.seqs(job.runId);
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i));
    expect(fin?.lastSeq).toBe(seqs.length - 1);
    expect(server.output(job.runId)).toMatch(/4\+0 records in\r?\n4\+0 records out\r?\n4194304 bytes \(4\.2 MB, 4\.0 MiB\) copied, [\d.e-]+ s, [\d.,]+ [kMG]?B\/s/);
    expect(fin).toMatchObject({ exitCode: 0, signal: null, cancelled: false, timedOut: false, interrupted: false, error: null });
    expect(fin?.durationMs).toBeGreaterThan(0);
    expect(fin?.profile).toMatchObject({ target: { path: allowed } });

    // the heartbeat named the run while it ran; the spool is empty afterwards
    expect(server.heartbeats.some((h) => h.runningRunIds.includes(job.runId))).toBe(true);
    expect(readdirSync(path.join(stateDir, "spool"))).toEqual([]);
    expect(log.lines.some((l) => l.includes(`run ${job.runId}: exit 0`))).toBe(true);
    // dd worked in a private run directory, removed with its file afterwards
    expect(log.lines.some((l) => l.includes(`of=${allowed}/probebook-run-`))).toBe(true);
    expect(readdirSync(allowed)).toEqual([]);
  });

  it("refuses a job outside --allow with finish {exitCode: null, error, lastSeq: -1}", async () => {
    const job = ddJob("/etc");
    server.jobs.push(job);
    await agent().agent.run();
    expect(server.finishes.get(job.runId)).toMatchObject({
      exitCode: null,
      lastSeq: -1,
      durationMs: 0,
      error: `target /etc is outside the allowed directories (${allowed})`,
    });
    expect(server.chunks.has(job.runId)).toBe(false);
  });

  it("cancels a running probe within 2 s of the user's click (chunk answers or heartbeats carry it)", async () => {
    const job = sarJob();
    server.jobs.push(job);
    const { agent: a } = agent();
    const running = a.run();
    await server.waitFor(() => server.chunks.has(job.runId));
    const clicked = Date.now();
    server.cancelRequested.add(job.runId);
    await server.waitFor(() => server.finishes.has(job.runId), 5000);
    expect(Date.now() - clicked).toBeLessThan(2000);
    expect(server.finishes.get(job.runId)).toMatchObject({ cancelled: true, exitCode: null, signal: "SIGTERM" });
    expect((await running).code).toBe(0);
  });

  it("rides out a server outage in the middle of a run", async () => {
    const job = { ...sarJob(), params: { target: allowed, sections: ["u"], interval: 1, count: 3 } };
    server.jobs.push(job);
    const running = agent().agent.run();
    await server.waitFor(() => server.chunks.has(job.runId));
    server.down = true;
    await new Promise((r) => setTimeout(r, 1500));
    server.down = false;
    expect((await running).code).toBe(0);
    const seqs = server.seqs(job.runId);
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i));
    expect(server.output(job.runId)).toMatch(/Average:\s+all/);
    expect(server.finishes.get(job.runId)).toMatchObject({ exitCode: 0, lastSeq: seqs.length - 1 });
  });

  it("reuses the stored credential on the next start and reports the host's profile again", async () => {
    server.jobs.push(ddJob("/etc"));
    await agent().agent.run();
    const job = ddJob("/etc");
    server.jobs.push(job);
    const { agent: second, log } = agent({ token: null });
    expect((await second.run()).code).toBe(0);
    expect(server.registrations).toHaveLength(1);
    expect(server.finishes.has(job.runId)).toBe(true);
    expect(server.heartbeats.filter((h) => h.profile && h.capabilities)).toHaveLength(1);
    expect(log.lines.some((l) => l.includes('signed in as host "test-host"'))).toBe(true);
  });

  it("stops gracefully: the running probe is cancelled and its finish delivered", async () => {
    const job = sarJob();
    server.jobs.push(job);
    const { agent: a } = agent({ once: false });
    const running = a.run();
    await server.waitFor(() => server.chunks.has(job.runId));
    a.stop("SIGTERM received");
    expect(await running).toEqual({ code: 0, message: "stopped (SIGTERM received)" });
    expect(server.finishes.get(job.runId)).toMatchObject({ cancelled: true, exitCode: null });
  });

  it("drains on a signal: claims nothing more, lets the running probe finish and delivers it", async () => {
    const job = { runId: randomUUID(), probe: "sar", params: { target: allowed, sections: ["u"], interval: 1, count: 3 } };
    const next = ddJob();
    server.jobs.push(job);
    const { agent: a, log } = agent({ once: false });
    const running = a.run();
    await server.waitFor(() => server.chunks.has(job.runId));
    server.jobs.push(next);
    a.drain("SIGINT received", 30_000);
    expect(await running).toEqual({ code: 0, message: "stopped (SIGINT received)" });
    const fin = server.finishes.get(job.runId);
    expect(fin).toMatchObject({ cancelled: false, exitCode: 0, error: null });
    const seqs = server.seqs(job.runId);
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i));
    expect(fin?.lastSeq).toBe(seqs.length - 1);
    expect(server.output(job.runId)).toMatch(/Average:/);
    // the job queued during the drain was left for the next start
    expect(server.finishes.has(next.runId)).toBe(false);
    expect(log.lines.some((l) => l.includes(`run ${job.runId} may finish within 30 s, then it is cancelled`))).toBe(true);
  });

  it("drains with a grace period: a probe still running when it ends is cancelled, and its finish delivered", async () => {
    const job = sarJob();
    server.jobs.push(job);
    const { agent: a } = agent({ once: false });
    const running = a.run();
    await server.waitFor(() => server.chunks.has(job.runId));
    const t0 = Date.now();
    a.drain("SIGTERM received", 1000);
    expect(await running).toEqual({ code: 0, message: "stopped (SIGTERM received)" });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(900);
    expect(server.finishes.get(job.runId)).toMatchObject({ cancelled: true, exitCode: null });
  });

  it("stops the running probe's process group for an exit at once", async () => {
    const job = sarJob();
    server.jobs.push(job);
    const { agent: a } = agent({ once: false });
    const running = a.run();
    await server.waitFor(() => server.chunks.has(job.runId));
    const sarPids = () =>
      readdirSync("/proc").filter((p) => /^\d+$/.test(p) && (() => { try { return readFileSync(`/proc/${p}/cmdline`, "utf8").startsWith("sar\0-u\0") || readFileSync(`/proc/${p}/cmdline`, "utf8").includes("/sar\0-u\0"); } catch { return false; } })());
    expect(sarPids().length).toBeGreaterThan(0);
    a.drain("SIGINT received", 60_000);
    await a.stopProbeNow();
    expect(sarPids()).toEqual([]);
    await running;
  });

  it("drains an idle agent at once", async () => {
    const { agent: a } = agent({ once: false });
    const running = a.run();
    await server.waitFor(() => server.registrations.length === 1);
    a.drain("SIGINT received", 60_000);
    expect(await running).toEqual({ code: 0, message: "stopped (SIGINT received)" });
  });

  it("exits with code 4 and the server's message when the server refuses its version, at register or at sign-in, without retrying", async () => {
    const why = "This agent (probebook-agent 0.2.0, protocol 1) is too old for this server … re-run the install line from the host's page";
    server.incompatible = why;
    const { agent: a } = agent({ once: false });
    const upgrade = `On this host: curl -fsSL ${server.url}/agent/install.sh | sudo sh -s -- --upgrade`;
    expect(await a.run()).toEqual({ code: 4, message: `${server.url} refused this agent's version: ${why} ${upgrade}` });
    expect(server.registrations).toHaveLength(0);
    expect(server.log.filter((l) => l.startsWith("/api/agent/register"))).toEqual(["/api/agent/register 426"]);
    // Registered before, refused when it signs in again with its capabilities.
    server.incompatible = null;
    const first = agent({ once: false }).agent;
    const running = first.run();
    // Registered and its credential stored (the server saw the request a moment before).
    await server.waitFor(() => existsSync(credentialPath(stateDir)));
    first.stop("test over");
    await running;
    server.incompatible = why;
    expect(await agent({ once: false, token: null }).agent.run()).toEqual({ code: 4, message: `${server.url} refused this agent's version: ${why} ${upgrade}` });
    expect(server.log.some((l) => l.startsWith("/api/agent/jobs/claim") && server.log.indexOf(l) > server.log.lastIndexOf("/api/agent/heartbeat 426"))).toBe(false);
  });

  it("exits with code 4 when a server upgraded under it refuses its claims", async () => {
    const { agent: a } = agent({ once: false });
    const running = a.run();
    await server.waitFor(() => server.registrations.length === 1);
    server.incompatibleClaims = "This agent (probebook-agent 0.2.0, protocol 1) is too old for this server";
    expect(await running).toMatchObject({ code: 4, message: expect.stringMatching(/refused this agent's version: This agent \(probebook-agent 0\.2\.0, protocol 1\) is too old for this server On this host: curl -fsSL http:\/\/127\.0\.0\.1:\d+\/agent\/install\.sh \| sudo sh -s -- --upgrade$/) });
  });

  it("reports its version and protocol version in its capabilities", async () => {
    const { agent: a } = agent({ once: false });
    const running = a.run();
    await server.waitFor(() => server.registrations.length === 1);
    a.stop("test over");
    await running;
    expect(server.registrations[0]?.capabilities).toMatchObject({ agentVersion: AGENT_VERSION, protocolVersion: AGENT_PROTOCOL_VERSION });
  });

  it("exits with code 3 and the way out when the credential is revoked", async () => {
    const { agent: a } = agent({ once: false });
    const running = a.run();
    await server.waitFor(() => server.registrations.length === 1);
    server.revoked = true;
    const exit = await running;
    expect(exit.code).toBe(3);
    expect(exit.message).toBe(
      `the server refused this agent's credential (HTTP 401: credential revoked). The host was probably revoked in the dashboard: ` +
        `delete ${credentialPath(stateDir)} and register again with a new --token`,
    );
  });

  it("exits with code 3 when the registration token is refused, and 2 without any token", async () => {
    expect(await agent({ token: "an-expired-token" }).agent.run()).toEqual({
      code: 3,
      message: "the server refused the registration token (registration token is unknown, used or expired): create a new one in the dashboard",
    });
    expect(existsSync(credentialPath(stateDir))).toBe(false);
    const none = await agent({ token: null }).agent.run();
    expect(none.code).toBe(2);
    expect(none.message).toMatch(/not registered yet/);
  });
});

describe("Agent tool re-detection", () => {
  const stopWhen = async (a: Agent, done: () => boolean) => {
    const running = a.run();
    await expect.poll(done, { timeout: 5000, interval: 20 }).toBe(true);
    a.stop("test over");
    return running;
  };

  it("detects its tools again when a claim asks for it and reports them in a heartbeat, without restarting", async () => {
    let detections = 0;
    const { agent: a, log } = agent({ once: false }, {
      detectCapabilities: async (dirs) => {
        detections++;
        const fio = detections > 1 ? { installed: true, version: "3.33", path: "/usr/bin/fio" } : { installed: false, version: null, path: null };
        return { agentVersion: "test", tools: { fio }, allowedDirs: dirs };
      },
    });
    server.requests.push({ recheckTools: true });
    await stopWhen(a, () => server.heartbeats.some((h) => h.capabilities?.tools.fio?.installed === true));
    expect(server.registrations[0]?.capabilities.tools.fio?.installed).toBe(false);
    expect(detections).toBe(2);
    expect(log.lines.some((l) => l.includes("tools re-checked (requested from the dashboard): fio 3.33"))).toBe(true);
  });

  it("ignores requests it does not know", async () => {
    const { agent: a } = agent({ once: false });
    server.requests.push({ somethingNew: true } as never, { recheckTools: true });
    await stopWhen(a, () => server.heartbeats.some((h) => h.capabilities !== undefined));
  });

  it("detects its tools again by itself when idle for the recheck interval", async () => {
    let detections = 0;
    const { agent: a } = agent({ once: false }, {
      toolsRecheckMs: 200,
      detectCapabilities: async (dirs) => {
        detections++;
        return { agentVersion: "test", tools: {}, allowedDirs: dirs };
      },
    });
    await stopWhen(a, () => detections >= 3 && server.heartbeats.filter((h) => h.capabilities).length >= 2);
  });
});

describe("Run directory journal", () => {
  it("removes the run directory an earlier process recorded, and nothing else", async () => {
    const { makeRunDir, RunDirJournal } = await import("./run-dir");
    const left = await makeRunDir(allowed);
    const other = await makeRunDir(allowed);
    writeFileSync(path.join(left, "probebook-dd.tmp"), "x".repeat(4096));
    const journal = new RunDirJournal(path.join(stateDir, "run-dir"));
    journal.record(left);
    expect(await new RunDirJournal(path.join(stateDir, "run-dir")).removeStale()).toBe(left);
    expect(existsSync(left)).toBe(false);
    expect(existsSync(other)).toBe(true);
    expect(existsSync(path.join(stateDir, "run-dir"))).toBe(false);
    expect(await journal.removeStale()).toBeNull();
    rmSync(other, { recursive: true });
  });

  it("at start, the agent removes what a killed predecessor left", async () => {
    const { makeRunDir, RunDirJournal } = await import("./run-dir");
    const left = await makeRunDir(allowed);
    new RunDirJournal(path.join(stateDir, "run-dir")).record(left);
    const job = ddJob();
    server.jobs.push(job);
    const { agent: a, log } = agent();
    await a.run();
    expect(existsSync(left)).toBe(false);
    expect(log.lines.some((l) => l.includes(`removed ${left}`))).toBe(true);
    expect(readdirSync(allowed)).toEqual([]);
  });
});
