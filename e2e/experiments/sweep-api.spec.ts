// A sweep end to end through the API with a real agent and real fio: a 3 × 3 grid (iodepth
// 1, 4, 16 × numjobs 1, 2, 4, libaio, 4 KiB random reads) whose points fio's steady state may end
// early, read back with every point's figures, a saturation sentence, and its CSV export.
// A point is time-based with a ramp of 4 s and a window of 2 s: a steady point ends after about
// 6 s, and the run checks flag anything under 5 s (a flagged point still has its figures, but
// counts as invalid and stays out of the saturation).
import { expect, test } from "../fixtures";
import { addHostWithAgent, removeAgent, type AgentHandle } from "../agent/agent-process";
import { signInAs } from "../helpers";

let agent: AgentHandle | null = null;

test.describe.configure({ mode: "serial" });

test.afterAll(async () => {
  await removeAgent(agent);
});

interface SweepJson {
  status: string;
  fioVersion: string | null;
  points: { iodepth: number; numjobs: number; order: number; status: string; problem: string | null; iops: number | null; latP99Ns: number | null; steady: { enabled: boolean; reached: boolean | null; afterSec: number | null } }[];
  saturation: { rule: string; sentence: string } | null;
}

test("a 3 × 3 sweep on this machine finishes with every point's IOPS and p99, a saturation sentence and a CSV of 9 points", async ({ page, baseURL }) => {
  test.setTimeout(8 * 60_000);
  await signInAs(page, "operator");
  let hostId = "";
  ({ agent, hostId } = await addHostWithAgent(page, { baseURL: baseURL!, name: "e2e-sweep" }));
  const params = { target: agent.scratch, rw: "randread", blockSizeKiB: 4, sizeMiB: 64, ioengine: "libaio", direct: true, runtimeSec: 10 };
  const sweep = { iodepths: [1, 4, 16], numjobs: [1, 2, 4], steadyState: { metric: "iops", limitPercent: 20, windowSec: 2, rampSec: 4 } };

  // Refusals name their field: a synchronous engine cannot keep 4 I/Os in flight.
  const refused = await page.request.post("/api/experiments", { data: { hostId, kind: "sweep", probe: "fio", params: { ...params, ioengine: "psync" }, sweep } });
  expect(refused.status()).toBe(400);
  expect((await refused.json()).fieldErrors["sweep.iodepths"][0]).toMatch(/psync is synchronous/);

  // The agent reports what it can do just after registering.
  let id = "";
  await expect
    .poll(async () => {
      const r = await page.request.post("/api/experiments", { data: { hostId, kind: "sweep", probe: "fio", params, sweep } });
      if (r.status() === 201) id = ((await r.json()) as { id: string }).id;
      return r.status();
    }, { timeout: 20_000 })
    .toBe(201);

  let view: SweepJson | null = null;
  await expect
    .poll(async () => {
      const r = await page.request.get(`/api/experiments/${id}`);
      const body = (await r.json()) as { kind: string; status: string; sweep?: SweepJson };
      expect(body.kind).toBe("sweep");
      view = body.sweep ?? null;
      return body.status;
    }, { timeout: 7 * 60_000, intervals: [3000] })
    .toBe("FINISHED");
  const v = view as unknown as SweepJson;
  expect(v.points).toHaveLength(9);
  // Interleaved, not ascending load: the second point run is not the second lightest.
  expect(v.points.map((p) => p.order).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
  for (const p of v.points) {
    expect(["done", "invalid"], `QD ${p.iodepth} × ${p.numjobs}: ${p.problem}`).toContain(p.status);
    expect(p.iops, `QD ${p.iodepth} × ${p.numjobs}`).toBeGreaterThan(0);
    expect(p.latP99Ns, `QD ${p.iodepth} × ${p.numjobs}`).toBeGreaterThan(0);
    expect(p.steady.enabled).toBe(true);
    expect(typeof p.steady.reached).toBe("boolean");
    if (p.steady.reached) expect(p.steady.afterSec).toBeGreaterThan(0);
  }
  // What the run checks said of each point (on a busy machine some are flagged: they keep their figures).
  console.log(v.points.map((p) => `QD ${p.iodepth} × ${p.numjobs}: ${p.status}${p.problem ? ` (${p.problem})` : ""}`).join("; "));
  expect(v.fioVersion).toMatch(/^fio-\d/);
  expect(v.saturation?.rule).toMatch(/less than 5 %.*more than 50 %/);
  expect(v.saturation?.sentence).toMatch(/^(This device saturates at QD \d+ × \d+ jobs?: .+ IOPS at p99 .+\.|No saturation within the grid: IOPS .+|Not enough finished points: .+)$/);

  const csv = await page.request.get(`/api/experiments/${id}/export?format=csv`);
  expect(csv.status()).toBe(200);
  const lines = (await csv.text()).trim().split("\r\n");
  expect(lines[0]).toMatch(/^iodepth,numjobs,block_size_kib,order,status,iops,/);
  expect(lines.slice(1)).toHaveLength(9);
  const json = await (await page.request.get(`/api/experiments/${id}/export?format=json`)).json();
  expect(json).toMatchObject({ kind: "sweep", saturation: { sentence: v.saturation!.sentence } });
  console.log(v.saturation?.sentence, v.points.map((p) => `${p.iodepth}x${p.numjobs}:${p.status}:${Math.round(p.iops ?? 0)}:${p.steady.reached ? p.steady.afterSec : "-"}`).join(" "));
});
