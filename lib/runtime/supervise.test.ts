import { spawn } from "node:child_process";
import net from "node:net";
import { describe, expect, it } from "vitest";
import { stopProcessGroup, supervise } from "./supervise";

/** Whether something accepts connections on the port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(port, "127.0.0.1");
    s.once("connect", () => (s.destroy(), resolve(true)));
    s.once("error", () => resolve(false));
  });
}

// A "web server" that forks the process holding the port (as next start does), and both ignore SIGTERM.
const HOLDER = "process.on('SIGTERM', () => {}); require('node:net').createServer().listen(0, '127.0.0.1', function () { console.log(this.address().port); });";
const HANGING_SERVER = `
  process.on("SIGTERM", () => {});
  require("node:child_process").spawn(process.execPath, ["-e", ${JSON.stringify(HOLDER)}], { stdio: ["ignore", "inherit", "inherit"] });
  setInterval(() => {}, 1000);
`;

describe("stopProcessGroup", () => {
  it("frees the port of a hanging server and its fork after the grace period", async () => {
    const server = spawn(process.execPath, ["-e", HANGING_SERVER], { detached: true, stdio: ["ignore", "pipe", "inherit"] });
    const port = await new Promise<number>((resolve) => server.stdout!.once("data", (d: Buffer) => resolve(Number(d.toString().trim()))));
    expect(await listening(port)).toBe(true);
    const t = Date.now();
    await stopProcessGroup(server, 500);
    expect(Date.now() - t).toBeGreaterThanOrEqual(450);
    await expect.poll(() => listening(port), { timeout: 3000 }).toBe(false);
  });
});

describe("supervise", () => {
  it("restarts a crashing process with growing delays, and stops restarting when stopped", async () => {
    const starts: number[] = [];
    const lines: string[] = [];
    const sup = supervise(
      async () => {
        starts.push(Date.now());
        return spawn(process.execPath, ["-e", "process.exit(1)"], { detached: true, stdio: "ignore" });
      },
      { name: "crasher", log: (m) => lines.push(m), baseDelayMs: 100, maxDelayMs: 400 },
    );
    await expect.poll(() => starts.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(4);
    await sup.stop(200);
    const gaps = starts.slice(1).map((t, i) => t - starts[i]!);
    expect(gaps[0]).toBeGreaterThanOrEqual(90);
    expect(gaps[2]).toBeGreaterThanOrEqual(350);
    expect(lines[0]).toMatch(/crasher exited \(exit 1\); restarting it in 0\.1 s/);
    const n = starts.length;
    await new Promise((r) => setTimeout(r, 600));
    expect(starts.length).toBe(n);
  });

  it("does not restart after an exit code a restart cannot fix", async () => {
    let starts = 0;
    const lines: string[] = [];
    const sup = supervise(
      async () => {
        starts++;
        return spawn(process.execPath, ["-e", "process.exit(2)"], { stdio: "ignore" });
      },
      { name: "agent", log: (m) => lines.push(m), baseDelayMs: 50, permanent: [2, 3] },
    );
    await expect.poll(() => lines.length, { timeout: 5000 }).toBe(1);
    await new Promise((r) => setTimeout(r, 300));
    expect(starts).toBe(1);
    expect(lines[0]).toMatch(/not restarting it/);
    await sup.stop();
  });

  it("aborts a start that is still waiting when stopped, and stops a child that start returns after the stop", async () => {
    let aborted = false;
    const waiting = supervise(
      (signal) =>
        new Promise((resolve) => {
          signal.addEventListener("abort", () => ((aborted = true), resolve(null)));
        }),
      { name: "waiter", log: () => undefined },
    );
    await waiting.stop(100);
    expect(aborted).toBe(true);

    let late: ReturnType<typeof spawn> | null = null;
    const slow = supervise(
      async () => {
        await new Promise((r) => setTimeout(r, 200));
        late = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { detached: true, stdio: "ignore" });
        return late;
      },
      { name: "slow", log: () => undefined },
    );
    await slow.stop(1000);
    expect(late).not.toBeNull();
    expect(late!.exitCode !== null || late!.signalCode !== null).toBe(true);
  });

  it("hurry signals the child's group again during a stop: a child that drains on the first SIGTERM exits on the second", async () => {
    // Ignores the first SIGTERM (a drain that would take long), exits on the second.
    const DRAINER = "let n = 0; process.on('SIGTERM', () => { if (++n > 1) process.exit(130); }); setInterval(() => {}, 1000);";
    const sup = supervise(async () => spawn(process.execPath, ["-e", DRAINER], { detached: true, stdio: "ignore" }), { name: "drainer", log: () => undefined });
    await expect.poll(() => sup.current()?.pid !== undefined, { timeout: 5000 }).toBe(true);
    const child = sup.current()!;
    await new Promise((r) => setTimeout(r, 200));
    const t0 = Date.now();
    const stopping = sup.stop(10_000);
    await new Promise((r) => setTimeout(r, 300));
    sup.hurry();
    await stopping;
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(child.exitCode).toBe(130);
  });
});
