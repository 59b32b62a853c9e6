// /api/series and /api/alerts through the real routes on a real database: roles, and every bad
// input answered with a 4xx naming the field (never a 500). Here rather than beside the routes
// because it seeds a series and an alert with the database client, which app/ may not import.
import crypto from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createApiToken } from "@/lib/server/tokens/create-api-token";
import { createUser } from "@/lib/server/users/create-user";
import { connectTestDatabase } from "@/lib/testing/db";
import { GET as listAlerts } from "@/app/api/alerts/route";
import { POST as acknowledge } from "@/app/api/alerts/[id]/acknowledge/route";
import { POST as compare } from "@/app/api/series/[id]/compare/route";
import { GET as getOne, PATCH } from "@/app/api/series/[id]/route";
import { GET as list } from "@/app/api/series/route";

connectTestDatabase();

const tokens: Record<"viewer" | "operator", string> = { viewer: "", operator: "" };
let seriesId = "";
let alertId = "";

beforeAll(async () => {
  for (const role of ["viewer", "operator"] as const) {
    const user = await createUser({ email: `series-route-${role}-${crypto.randomUUID().slice(0, 8)}@example.test`, password: "long enough 1", role: role === "viewer" ? "VIEWER" : "OPERATOR" });
    tokens[role] = (await createApiToken({ userId: user.id, name: "series route test" })).token;
  }
  const s = await db().series.create({ data: { key: crypto.randomUUID(), probe: "dd", params: { target: "/srv" }, target: "/srv" } });
  seriesId = s.id;
  const a = await db().alert.create({ data: { seriesId, kind: "REGRESSION", metricKey: "throughput|", ratio: 0.8, ciLow: 0.75, ciHigh: 0.85, confidence: 0.968, message: "write throughput −20 % (CI −25 to −15 %); no change in the host profile was seen between the two windows" } });
  alertId = a.id;
});

const req = (path: string, role: "viewer" | "operator", init: { method?: string; body?: string } = {}) =>
  new Request(`http://127.0.0.1${path}`, { method: init.method ?? "GET", headers: { authorization: `Bearer ${tokens[role]}`, "content-type": "application/json" }, body: init.body });
const ctx = (id: string) => ({ params: Promise.resolve({ id }) });
const json = async (res: Response) => ({ status: res.status, body: (await res.json()) as Record<string, unknown> & { error?: string; fieldErrors?: Record<string, string[]> } });

describe("/api/series", () => {
  it("viewers read the list and one series; an unknown id is a 404", async () => {
    const l = await json(await list(req("/api/series", "viewer")));
    expect(l.status).toBe(200);
    expect((l.body.series as { id: string }[]).some((s) => s.id === seriesId)).toBe(true);
    expect((await getOne(req(`/api/series/${seriesId}`, "viewer"), ctx(seriesId))).status).toBe(200);
    const missing = crypto.randomUUID();
    expect(await json(await getOne(req(`/api/series/${missing}`, "viewer"), ctx(missing)))).toMatchObject({ status: 404, body: { error: `No series ${missing}.` } });
    expect((await json(await list(req("/api/series?hostId=nope", "viewer")))).body.error).toMatch(/hostId/);
  });

  it("PATCH: operators only, fields checked by name", async () => {
    expect((await PATCH(req(`/api/series/${seriesId}`, "viewer", { method: "PATCH", body: '{"windowRuns":4}' }), ctx(seriesId))).status).toBe(403);
    const bad = await json(await PATCH(req(`/api/series/${seriesId}`, "operator", { method: "PATCH", body: '{"windowRuns":2,"colour":"red"}' }), ctx(seriesId)));
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toMatch(/windowRuns/);
    const ok = await json(await PATCH(req(`/api/series/${seriesId}`, "operator", { method: "PATCH", body: '{"windowRuns":4,"thresholdPct":7.5}' }), ctx(seriesId)));
    expect(ok).toMatchObject({ status: 200, body: { windowRuns: 4, thresholdPct: 7.5 } });
    // No runs yet: any metric key is one the runs do not have.
    expect(await json(await PATCH(req(`/api/series/${seriesId}`, "operator", { method: "PATCH", body: '{"metricKey":"iops|"}' }), ctx(seriesId)))).toMatchObject({ status: 400, body: { fieldErrors: { metricKey: expect.any(Array) } } });
  });

  it("compare: a viewer may; a date that is not one, or a window backwards, is a 400 naming it", async () => {
    const body = (a: string) => `{"a":{"from":${a},"to":"2026-11-02"},"b":{"from":"2026-11-03","to":"2026-11-04"}}`;
    const ok = await json(await compare(req(`/api/series/${seriesId}/compare`, "viewer", { method: "POST", body: body('"2026-11-01"') }), ctx(seriesId)));
    expect(ok).toMatchObject({ status: 200, body: { state: "collecting", baselineRunIds: [] } });
    const notDate = await json(await compare(req(`/api/series/${seriesId}/compare`, "viewer", { method: "POST", body: body('"soon"') }), ctx(seriesId)));
    expect(notDate.status).toBe(400);
    expect(JSON.stringify(notDate.body)).toMatch(/a\.from must be a date/);
    const backwards = await json(await compare(req(`/api/series/${seriesId}/compare`, "viewer", { method: "POST", body: body('"2026-12-01"') }), ctx(seriesId)));
    expect(backwards).toMatchObject({ status: 400, body: { error: "a.from must not be after a.to." } });
  });
});

describe("/api/alerts", () => {
  it("lists open alerts; a bad filter is a 400 naming it", async () => {
    const l = await json(await listAlerts(req("/api/alerts?kind=regression", "viewer")));
    expect(l.status).toBe(200);
    expect((l.body.alerts as { id: string }[]).map((a) => a.id)).toContain(alertId);
    const bad = await json(await listAlerts(req("/api/alerts?state=closed", "viewer")));
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toMatch(/state/);
    expect((await listAlerts(req("/api/alerts?limit=0", "viewer"))).status).toBe(400);
  });

  it("acknowledge: operators only; unknown alerts are a 404", async () => {
    expect((await acknowledge(req(`/api/alerts/${alertId}/acknowledge`, "viewer", { method: "POST" }), ctx(alertId))).status).toBe(403);
    const ok = await json(await acknowledge(req(`/api/alerts/${alertId}/acknowledge`, "operator", { method: "POST" }), ctx(alertId)));
    expect(ok.status).toBe(200);
    expect(ok.body.acknowledgedAt).toEqual(expect.any(String));
    const missing = crypto.randomUUID();
    expect((await acknowledge(req(`/api/alerts/${missing}/acknowledge`, "operator", { method: "POST" }), ctx(missing))).status).toBe(404);
  });
});
