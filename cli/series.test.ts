// probebook series / alerts against a local HTTP server answering what the contract says (the
// answers are parsed with the API's own schemas first, so the fixtures cannot drift from it).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { alertSchema, seriesDetailSchema, seriesSummarySchema } from "../lib/api/schemas/series";
import { alertsCommand, alertsText, seriesCommand, seriesShowText } from "./commands/series";
import { EXIT } from "./exit-codes";

const SERIES = "6f1c2b1e-3a4d-4c5e-8f70-1a2b3c4d5e6f";
const HOST = "0b7a9c2d-1e3f-4a5b-9c6d-7e8f9a0b1c2d";
const RUN = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`;
const ALERT = "aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee";
const metric = { key: "throughput|", noun: "write throughput", unit: "MiB/s", betterWhen: "higher" as const };

const alert = alertSchema.parse({
  id: ALERT,
  seriesId: SERIES,
  seriesTitle: "dd write-direct on /srv",
  hostId: HOST,
  hostName: "db-1\u001b]0;pwned\u0007",
  kind: "regression",
  metricKey: metric.key,
  noun: metric.noun,
  unit: metric.unit,
  ratio: 0.82,
  ciLow: 0.76,
  ciHigh: 0.89,
  confidence: 0.968,
  baselineRunIds: [RUN(1)],
  recentRunIds: [RUN(2)],
  changes: [{ field: "kernel", label: "kernel", from: "6.1.0-25-amd64", to: "6.1.0-28-amd64" }],
  message: "write throughput −18 % (CI −24 to −11 %) since kernel 6.1.0-25-amd64 → 6.1.0-28-amd64",
  createdAt: "2026-11-20T08:00:00.000Z",
  acknowledgedAt: null,
});
const summary = seriesSummarySchema.parse({
  id: SERIES,
  title: "dd write-direct on /srv",
  hostId: HOST,
  hostName: "db-1",
  probe: "dd",
  preset: "write-direct",
  target: "/srv",
  metric,
  runs: 2,
  lastRunAt: "2026-11-20T08:00:00.000Z",
  latest: 410.5,
  recent: [500, 410.5],
  trend: "regression",
  openAlerts: 1,
  windowRuns: 5,
  thresholdPct: 5,
});
const detail = seriesDetailSchema.parse({
  ...summary,
  params: { target: "/srv" },
  metrics: [metric],
  points: [
    { runId: RUN(1), at: "2026-11-19T08:00:00.000Z", status: "SUCCEEDED", value: 500, low: null, high: null, valid: true, flags: [], notes: null, scheduled: true },
    { runId: RUN(2), at: "2026-11-20T08:00:00.000Z", status: "SUCCEEDED", value: 410.5, low: null, high: null, valid: true, flags: [], notes: "after the upgrade", scheduled: false },
  ],
  annotations: [{ runId: RUN(2), at: "2026-11-20T08:00:00.000Z", changes: alert.changes }],
  alerts: [alert],
  current: null,
});

const seen: string[] = [];
let server: http.Server;
let url = "";
beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.push(`${req.method} ${req.url} ${req.headers.authorization}`);
    const u = new URL(req.url ?? "/", "http://x");
    const send = (status: number, body: unknown) => res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    if (u.pathname === "/api/series") return send(200, { series: [summary] });
    if (u.pathname === `/api/series/${SERIES}`) return send(200, detail);
    if (u.pathname === "/api/alerts") return send(200, { alerts: [alert] });
    return send(404, { error: `No series ${u.pathname.split("/").pop()}.` });
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

describe("probebook series and alerts", () => {
  it("series list asks for the host's series and prints one row each", async () => {
    const r = await capture(() => seriesCommand(["list", "--host", HOST, ...conn()]));
    expect(r.code).toBe(EXIT.OK);
    expect(seen.at(-1)).toBe(`GET /api/series?hostId=${HOST} Bearer pbt_test`);
    expect(r.out).toMatch(/^ID\s+SERIES\s+HOST\s+FIGURE/);
    expect(r.out).toMatch(/db-1\s+write throughput/);
    expect(r.out).toContain("dd write-direct on /srv");
    expect(r.out).toMatch(/write throughput \(MiB\/s\)\s+410\.5\s+regression\s+2\s+1/);
  });

  it("series show prints the points, the profile change, the verdict state and the open alert", async () => {
    const r = await capture(() => seriesCommand(["show", SERIES, ...conn()]));
    expect(r.code).toBe(EXIT.OK);
    expect(r.out).toContain("following: write throughput (MiB/s, higher is better); windows of 5 runs, threshold 5 %; trend: regression");
    expect(r.out).toMatch(new RegExp(`${RUN(2)}\\s+2026-11-20 08:00\\s+succeeded\\s+410\\.5\\s+yes\\s+after the upgrade; since: kernel 6\\.1\\.0-25-amd64 → 6\\.1\\.0-28-amd64`));
    expect(r.out).toContain("current: collecting (10 valid runs needed)");
    expect(r.out).toContain("open alerts:");
    expect(r.out).toContain("write throughput −18 % (CI −24 to −11 %) since kernel");
    // The host's name carried an escape sequence: it never reaches the terminal.
    expect(r.out).not.toContain("\u001b");
    expect(r.out).not.toContain("\u0007");
  });

  it("series show --json is the API's answer", async () => {
    const r = await capture(() => seriesCommand(["show", SERIES, "--json", ...conn()]));
    expect(seriesDetailSchema.parse(JSON.parse(r.out)).id).toBe(SERIES);
  });

  it("alerts asks for open ones, --all for every one", async () => {
    const open = await capture(() => alertsCommand(conn()));
    expect(seen.at(-1)).toBe("GET /api/alerts?state=open Bearer pbt_test");
    expect(open.out).toMatch(new RegExp(`${ALERT}\\s+regression\\s+dd write-direct on /srv\\s+db-1\\s+2026-11-20 08:00\\s+open`));
    await capture(() => alertsCommand(["--all", ...conn()]));
    expect(seen.at(-1)).toBe("GET /api/alerts?state=all Bearer pbt_test");
  });

  it("refuses bad arguments with exit 2 and relays the server's refusals with exit 5", async () => {
    await expect(seriesCommand(["show", "12", ...conn()])).rejects.toMatchObject({ exitCode: EXIT.USAGE });
    await expect(seriesCommand(["list", "--host", "db-1", ...conn()])).rejects.toMatchObject({ exitCode: EXIT.USAGE });
    await expect(seriesCommand(["drop", ...conn()])).rejects.toMatchObject({ exitCode: EXIT.USAGE });
    await expect(seriesCommand(["show", RUN(9), ...conn()])).rejects.toMatchObject({ exitCode: EXIT.API_ERROR, message: expect.stringMatching(/No series .*HTTP 404/) });
  });

  it("the texts stand alone too", () => {
    expect(alertsText([])).toBe("");
    expect(seriesShowText({ ...detail, alerts: [] })).toContain("no open alerts");
  });
});
