import { spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { saveCredential } from "../../probes/agent/credential-store";
import { generateSecret, hashSecret } from "../auth/secret-token";
import { db } from "../db";
import { connectTestDatabase } from "../testing/db";
import { startLocalAgent } from "./local-agent";

const databaseUrl = connectTestDatabase();
const root = fs.mkdtempSync(path.join(os.tmpdir(), "pb-local-agent-"));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

interface Started {
  child: ChildProcess;
  args: string[];
  token: string | undefined;
}

/** One app instance's local agent with a stand-in agent process (a node that idles until signalled). */
function instance(name: string, machineId: string, port: number) {
  const dataDir = path.join(root, name);
  const started: Started[] = [];
  const lines: string[] = [];
  const sup = startLocalAgent({
    port,
    dataDir,
    databaseUrl,
    machineId,
    lockCheckMs: 100,
    restartDelayMs: 50,
    log: (m) => lines.push(m),
    spawnAgent: (args, env) => {
      const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { detached: true, stdio: "ignore" });
      started.push({ child, args, token: env.PROBEBOOK_AGENT_TOKEN });
      return child;
    },
  })!;
  const running = () => started.filter((s) => s.child.exitCode === null && s.child.signalCode === null);
  return { sup, started, running, lines, dataDir, stateDir: path.join(dataDir, "agent") };
}

const hostsOf = (machineId: string) => db().host.findMany({ where: { machineId } });

describe("the local agent: one host per machine, one running agent", () => {
  it("two instances with their own data dirs share one host; one runs the agent, the other takes over when it stops without revoking it first", async () => {
    const machine = `test-${crypto.randomUUID()}`;
    const a = instance("a", machine, 3101);
    await expect.poll(() => a.running().length, { timeout: 5000 }).toBe(1);
    const b = instance("b", machine, 3102);
    await expect.poll(() => b.lines.some((l) => l.includes("another Probebook instance on this machine runs the local agent")), { timeout: 5000 }).toBe(true);
    expect(b.started).toHaveLength(0);

    const hosts = await hostsOf(machine);
    expect(hosts).toHaveLength(1);
    expect(hosts[0]!.name).toBe(`${os.hostname()} (this machine)`);
    expect(a.started[0]!.token).toMatch(/^pbr_/);
    expect(a.started[0]!.args).toEqual(expect.arrayContaining(["--server", "http://127.0.0.1:3101", "--stop-grace", "60"]));

    // A registers (what its agent would do): the host now has A's credential.
    const credA = generateSecret("pba");
    await db().host.update({ where: { id: hosts[0]!.id }, data: { agentCredentialHash: hashSecret(credA), registrationTokenHash: null, registrationExpiresAt: null } });

    await a.sup.stop(2000);
    expect(a.running()).toHaveLength(0);
    await expect.poll(() => b.running().length, { timeout: 5000 }).toBe(1);
    // B got a registration token of its own; A's credential stays valid until B's agent registers with it.
    expect(b.started[0]!.token).toMatch(/^pbr_/);
    const after = await db().host.findUniqueOrThrow({ where: { id: hosts[0]!.id } });
    expect(after.agentCredentialHash).toBe(hashSecret(credA));
    expect(after.registrationTokenHash).toBe(hashSecret(b.started[0]!.token!));
    expect(await hostsOf(machine)).toHaveLength(1);
    expect(b.lines).toContain("the other instance's local agent has stopped: this instance runs it now");
    await b.sup.stop(2000);
  });

  it("starts the agent on its stored credential while it is the host's, rewriting the address when PORT changed", async () => {
    const machine = `test-${crypto.randomUUID()}`;
    const first = instance("c", machine, 3103);
    await expect.poll(() => first.running().length, { timeout: 5000 }).toBe(1);
    await first.sup.stop(2000);
    const [host] = await hostsOf(machine);
    const credential = generateSecret("pba");
    await db().host.update({ where: { id: host!.id }, data: { agentCredentialHash: hashSecret(credential) } });
    saveCredential(first.stateDir, { server: "http://127.0.0.1:3103", hostId: host!.id, hostName: host!.name, credential });

    const again = instance("c", machine, 3104);
    await expect.poll(() => again.running().length, { timeout: 5000 }).toBe(1);
    expect(again.started[0]!.token).toBeUndefined();
    expect(JSON.parse(fs.readFileSync(path.join(again.stateDir, "credential.json"), "utf8"))).toMatchObject({ server: "http://127.0.0.1:3104", credential });
    await again.sup.stop(2000);
  });

  it("adopts the host an instance's agent registered before machine ids existed", async () => {
    const machine = `test-${crypto.randomUUID()}`;
    const credential = generateSecret("pba");
    const old = await db().host.create({ data: { name: "old (this machine)", agentCredentialHash: hashSecret(credential) } });
    const stateDir = path.join(root, "d", "agent");
    saveCredential(stateDir, { server: "http://127.0.0.1:3105", hostId: old.id, hostName: old.name, credential });
    const d = instance("d", machine, 3105);
    await expect.poll(() => d.running().length, { timeout: 5000 }).toBe(1);
    expect(d.started[0]!.token).toBeUndefined();
    expect((await hostsOf(machine)).map((h) => h.id)).toEqual([old.id]);
    await d.sup.stop(2000);
  });
});
