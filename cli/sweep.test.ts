// probebook sweep against a local HTTP server answering what the contract says (the sweep is
// parsed with the API's own schema first, so the fixture cannot drift from it).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { sweepViewSchema } from "../lib/api/schemas/sweeps";
import { computeSaturation } from "../lib/sweeps/saturation";
import type { SweepView } from "../lib/sweeps/types";
import { intList, sweepCommand, sweepShowText } from "./commands/sweep";
import { EXIT } from "./exit-codes";

const HOST = "0b7a9c2d-1e3f-4a5b-9c6d-7e8f9a0b1c2d";
const SWEEP = "6f1c2b1e-3a4d-4c5e-8f70-1a2b3c4d5e6f";
const point = (iodepth: number, numjobs: number, order: number, iops: number, p99Us: number) => ({
  iodepth, numjobs, blockSizeKiB: 4, order, runId: null, status: "done" as const, problem: null, iops, bandwidthBps: iops * 4096,
  latP50Ns: p99Us * 300, latP99Ns: p99Us * 1000, latP999Ns: p99Us * 2000, runtimeSec: 6, steady: { enabled: true, reached: true, afterSec: 5.6 },
});
const points = [point(1, 1, 0, 10_000, 150), point(4, 1, 2, 38_000, 180), point(16, 1, 1, 92_000, 1_900), point(64, 1, 3, 93_000, 7_500)];
const sweep: SweepView = sweepViewSchema.parse({
  experimentId: SWEEP, title: "fio randread sweep", hostLabel: "db-1\u001b]0;pwned\u0007", target: "/srv/pb", fsType: "ext4", fioVersion: "fio-3.33",
  workload: { rw: "randread", rwmixread: null, ioengine: "libaio", direct: true, sizeMiB: 256, pointRuntimeSec: 10, steadyState: { metric: "iops", limitPercent: 5, windowSec: 5, rampSec: 2 } },
  grid: { iodepths: [1, 4, 16, 64], numjobs: [1], blockSizesKiB: [4] },
  points, saturation: computeSaturation(points), status: "FINISHED", createdAt: "2026-11-28T10:00:00.000Z", finishedAt: "2026-11-28T10:05:00.000Z",
}) as SweepView;

const bodies: unknown[] = [];
let server: http.Server;
let url = "";
beforeAll(async () => {
  server = http.createServer((req, res) => {
    const u = new URL(req.url ?? "/", "http://x");
    const send = (status: number, body: unknown) => res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    let text = "";
    req.on("data", (c) => (text += String(c)));
    req.on("end", () => {
      if (u.pathname === "/api/hosts") return send(200, { hosts: [{ id: HOST, name: "db-1", capabilities: { allowedDirs: ["/srv/pb"] } }] });
      if (u.pathname === "/api/experiments" && req.method === "POST") {
        const body = JSON.parse(text) as { params: { ioengine: string } };
        bodies.push(body);
        if (body.params.ioengine === "psync") return send(400, { error: "Invalid body", fieldErrors: { "sweep.iodepths": ["psync is synchronous: an iodepth above 1 needs params.ioengine libaio or io_uring."] } });
        return send(201, { id: SWEEP });
      }
      if (u.pathname === `/api/experiments/${SWEEP}`) return send(200, { kind: "sweep", sweep });
      return send(404, { error: "No experiment." });
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

async function capture(fn: () => Promise<number>): Promise<{ code: number; out: string }> {
  let out = "";
  const w = vi.spyOn(process.stdout, "write").mockImplementation((c) => ((out += String(c)), true));
  const e = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
  try {
    return { code: await fn(), out };
  } finally {
    w.mockRestore();
    e.mockRestore();
  }
}
const conn = () => ["--server", url, "--token", "pbt_test"];

describe("probebook sweep", () => {
  it("create sends the grid, workload and steady state and prints the id", async () => {
    const r = await capture(() => sweepCommand(["create", "--host", "db-1", "--rw", "randread", "--iodepths", "1,4,16", "--numjobs", "1,2,4", "--bs", "4,64", "--ioengine", "libaio", "--point-runtime", "8", "--steady", "iops:5%,window=5,ramp=2", ...conn()]));
    expect(r).toEqual({ code: EXIT.OK, out: `${SWEEP}\n` });
    expect(bodies.at(-1)).toEqual({
      hostId: HOST, kind: "sweep", probe: "fio",
      params: { target: "/srv/pb", rw: "randread", ioengine: "libaio", direct: true, runtimeSec: 8 },
      sweep: { iodepths: [1, 4, 16], numjobs: [1, 2, 4], blockSizesKiB: [4, 64], steadyState: { metric: "iops", limitPercent: 5, windowSec: 5, rampSec: 2 } },
    });
  });

  it("show prints every point, its steady state and the saturation sentence, without escape sequences", async () => {
    const r = await capture(() => sweepCommand(["show", SWEEP, ...conn()]));
    expect(r.code).toBe(EXIT.OK);
    expect(r.out).toMatch(/^QD\s+JOBS\s+RAN\s+STATUS\s+IOPS\s+MiB\/s\s+p50\s+p99\s+p99\.9\s+STEADY/m);
    expect(r.out).toMatch(/^16\s+1\s+#2\s+done\s+92\.0 k\s+359\.4\s+570 µs\s+1\.90 ms\s+3\.80 ms\s+after 5\.6 s/m);
    expect(r.out).toContain("This device saturates at QD 16 × 1 job: 92 k IOPS at p99 1.9 ms.");
    expect(r.out).toContain("fio-3.33");
    expect(r.out).not.toContain("\u001b");
    const json = await capture(() => sweepCommand(["show", SWEEP, "--json", ...conn()]));
    expect(sweepViewSchema.parse(JSON.parse(json.out)).points).toHaveLength(4);
    expect(sweepShowText({ ...sweep, saturation: null })).toContain("No point has finished yet.");
  });

  it("refuses unknown flags and bad lists with exit 2 naming them, and relays the server's field errors with exit 5", async () => {
    await expect(sweepCommand(["create", "--host", "db-1", "--iodepths", "1", "--numjobs", "1", "--qd", "4", ...conn()])).rejects.toMatchObject({ exitCode: EXIT.USAGE, message: expect.stringMatching(/--qd/) });
    await expect(sweepCommand(["create", "--host", "db-1", "--iodepths", "1,x", "--numjobs", "1", ...conn()])).rejects.toMatchObject({ exitCode: EXIT.USAGE, message: expect.stringMatching(/--iodepths takes whole numbers/) });
    await expect(sweepCommand(["create", "--host", "db-1", "--iodepths", "1", ...conn()])).rejects.toMatchObject({ exitCode: EXIT.USAGE, message: expect.stringMatching(/--numjobs LIST/) });
    await expect(sweepCommand(["create", "--host", "db-1", "--iodepths", "1", "--numjobs", "1", "--steady", "lat:5%", ...conn()])).rejects.toMatchObject({ exitCode: EXIT.USAGE, message: expect.stringMatching(/^--steady: "lat:5%" is not METRIC:LIMIT%/) });
    await expect(sweepCommand(["show", "12", ...conn()])).rejects.toMatchObject({ exitCode: EXIT.USAGE });
    await expect(sweepCommand(["drop", ...conn()])).rejects.toMatchObject({ exitCode: EXIT.USAGE });
    await expect(sweepCommand(["create", "--host", "db-1", "--iodepths", "1,4", "--numjobs", "1", ...conn()])).rejects.toMatchObject({ exitCode: EXIT.API_ERROR, message: expect.stringMatching(/sweep\.iodepths: psync is synchronous/) });
    expect(intList("1, 4,16", "iodepths")).toEqual([1, 4, 16]);
  });
});
