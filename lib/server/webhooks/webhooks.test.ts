import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createWebhookSchema, updateWebhookSchema } from "../../api/schemas/webhooks";
import { db } from "../../db";
import { connectTestDatabase } from "../../testing/db";
import { createWebhook } from "./create-webhook";
import { deleteWebhook } from "./delete-webhook";
import { deliverWebhooks, fanOutAlerts, MAX_ATTEMPTS, RETRY_DELAYS_MS } from "./deliver-webhooks";
import { listWebhookDeliveries } from "./list-webhook-deliveries";
import { signWebhook, verifyWebhookSignature } from "./sign-webhook";
import { testWebhook } from "./test-webhook";
import { updateWebhook } from "./update-webhook";

connectTestDatabase();

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A real receiver on 127.0.0.1: answers the queued statuses in turn (then 200) and keeps every request. */
async function receiver(statuses: number[] = []) {
  const got: Received[] = [];
  const server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on("data", (c: Buffer) => parts.push(c));
    req.on("end", () => {
      got.push({ headers: req.headers, body: Buffer.concat(parts).toString("utf8") });
      const status = statuses.shift() ?? 200;
      res.writeHead(status, { "content-type": "text/plain" }).end(status >= 300 ? `receiver says ${status}` : "ok");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  servers.push(server);
  return { url, got };
}

/** A port nothing listens on: bound once, then closed. */
async function deadUrl(): Promise<string> {
  const s = http.createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  const port = (s.address() as AddressInfo).port;
  await new Promise((r) => s.close(r));
  return `http://127.0.0.1:${port}/hook`;
}

const servers: http.Server[] = [];
const targets: string[] = [];

async function target(input: { url: string; format?: "json" | "slack"; includeImprovements?: boolean; enabled?: boolean }) {
  const t = await createWebhook({ input: createWebhookSchema.parse({ name: `t-${crypto.randomUUID().slice(0, 6)}`, ...input }), createdById: null });
  targets.push(t.id);
  return t;
}

async function alert(kind: "REGRESSION" | "IMPROVEMENT" = "REGRESSION", createdAt = new Date()) {
  const host = await db().host.create({ data: { name: `wh-host-${crypto.randomUUID().slice(0, 6)}` } });
  const series = await db().series.create({
    data: { key: `wh-${crypto.randomUUID()}`, hostId: host.id, probe: "fio", preset: "quick", params: {}, target: "/srv/data" },
  });
  return db().alert.create({
    data: {
      seriesId: series.id,
      kind,
      metricKey: "write.bw",
      ratio: 0.82,
      ciLow: 0.76,
      ciHigh: 0.89,
      confidence: 0.95,
      changes: [{ field: "kernel", label: "kernel", from: "6.8.0", to: "6.11.0" }],
      message: "write throughput −18 % (CI −24 to −11 %) since kernel 6.8.0 → 6.11.0 <b>",
      createdAt,
    },
    include: { series: { include: { host: true } } },
  });
}

/** Deliveries made in this file only (other files share the database). */
const deliveriesOf = (targetId: string) => db().webhookDelivery.findMany({ where: { targetId }, orderBy: { createdAt: "asc" } });

afterEach(async () => {
  // Deleting the targets drops their deliveries: the next test's ticks see none of them.
  await db().webhookTarget.deleteMany({ where: { id: { in: targets.splice(0) } } });
});
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
});

describe("signing", () => {
  it("the test delivery is signed: it verifies with the target's secret and not with another", async () => {
    const rx = await receiver();
    const t = await target({ url: rx.url });
    expect(t.secret).toMatch(/^[A-Za-z0-9_-]{43}$/); // 32 bytes, base64url
    const outcome = await testWebhook({ id: t.id, baseUrl: "https://pb.example" });
    expect(outcome).toMatchObject({ status: "DELIVERED", statusCode: 200, error: null });
    expect(rx.got).toHaveLength(1);
    const { headers, body } = rx.got[0]!;
    expect(headers["x-probebook-event"]).toBe("test");
    expect(headers["x-probebook-delivery"]).toBe(outcome.id);
    const ts = headers["x-probebook-timestamp"] as string;
    const sig = headers["x-probebook-signature"] as string;
    expect(Math.abs(Number(ts) - Date.now() / 1000)).toBeLessThan(60);
    expect(sig).toBe(`sha256=${crypto.createHmac("sha256", t.secret).update(`${ts}.${body}`).digest("hex")}`);
    expect(verifyWebhookSignature(t.secret, ts, body, sig)).toBe(true);
    expect(verifyWebhookSignature(crypto.randomBytes(32).toString("base64url"), ts, body, sig)).toBe(false);
    expect(verifyWebhookSignature(t.secret, String(Number(ts) + 1), body, sig)).toBe(false);
    expect(verifyWebhookSignature(t.secret, ts, body.replace("test", "tesT"), sig)).toBe(false);
    expect(JSON.parse(body)).toMatchObject({ event: "test", alert: { kind: "regression", url: expect.stringMatching(/^https:\/\/pb\.example\/alerts\//) } });
    // The test shows in the delivery log, delivered, not retried.
    const log = await listWebhookDeliveries({ id: t.id });
    expect(log).toEqual([expect.objectContaining({ id: outcome.id, test: true, status: "DELIVERED", attempts: 1, lastStatusCode: 200 })]);
  });

  it("a rotated secret signs from then on; the old one no longer verifies", async () => {
    const rx = await receiver();
    const t = await target({ url: rx.url });
    const rotated = await updateWebhook({ id: t.id, input: { rotateSecret: true } });
    expect(rotated.secret).toBeDefined();
    expect(rotated.secret).not.toBe(t.secret);
    await testWebhook({ id: t.id, baseUrl: null });
    const { headers, body } = rx.got[0]!;
    const ts = headers["x-probebook-timestamp"] as string;
    expect(verifyWebhookSignature(rotated.secret!, ts, body, headers["x-probebook-signature"] as string)).toBe(true);
    expect(verifyWebhookSignature(t.secret, ts, body, headers["x-probebook-signature"] as string)).toBe(false);
    expect(signWebhook("k", 1, "{}")).toBe(`sha256=${crypto.createHmac("sha256", "k").update("1.{}").digest("hex")}`);
  });
});

describe("payloads", () => {
  it("JSON: the alert with its series, host, changes and link; Slack: text and mrkdwn blocks", async () => {
    const json = await receiver();
    const slack = await receiver();
    await target({ url: json.url });
    await target({ url: slack.url, format: "slack" });
    const a = await alert();
    const out = await deliverWebhooks({ baseUrl: "https://pb.example/" });
    expect(out.filter((o) => o.status === "DELIVERED").length).toBeGreaterThanOrEqual(2);
    expect(json.got).toHaveLength(1);
    expect(json.got[0]!.headers["x-probebook-event"]).toBe("alert.regression");
    expect(JSON.parse(json.got[0]!.body)).toEqual({
      event: "alert.regression",
      alert: {
        id: a.id,
        kind: "regression",
        message: a.message,
        ratio: 0.82,
        ciLow: 0.76,
        ciHigh: 0.89,
        confidence: 0.95,
        changes: [{ field: "kernel", label: "kernel", from: "6.8.0", to: "6.11.0" }],
        createdAt: a.createdAt.toISOString(),
        series: { id: a.seriesId, probe: "fio", preset: "quick", target: "/srv/data", host: { id: a.series.hostId, name: a.series.host!.name } },
        url: `https://pb.example/alerts/${a.id}`,
      },
    });
    expect(slack.got).toHaveLength(1);
    const s = JSON.parse(slack.got[0]!.body) as { text: string; blocks: { type: string; text?: { type: string; text: string }; elements?: { text: string }[] }[] };
    expect(s.text).toContain(`Regression on ${a.series.host!.name} · fio · quick · /srv/data`);
    expect(s.blocks[0]!.text!.type).toBe("mrkdwn");
    expect(s.blocks[0]!.text!.text).toContain("&lt;b&gt;"); // mrkdwn's three escapes
    expect(s.blocks[0]!.text!.text).toContain("Ratio −18.0 % (CI −24.0 % to −11.0 %, 95 %)");
    expect(s.blocks[1]!.text!.text).toContain("kernel: 6.8.0 → 6.11.0");
    expect(s.blocks[2]!.elements![0]!.text).toBe(`<https://pb.example/alerts/${a.id}|Open the alert>`);
    // The body is kept as sent: a retry sends the same bytes.
    const [stored] = await db().webhookDelivery.findMany({ where: { alertId: a.id, target: { format: "JSON" } } });
    expect(stored!.payload).toEqual({ event: "alert.regression", body: json.got[0]!.body });
  });
});

describe("delivery", () => {
  it("a receiver answering 500 then 200: retried after the backoff, then DELIVERED", async () => {
    const rx = await receiver([500, 200]);
    const t = await target({ url: rx.url });
    await alert();
    const t0 = new Date();
    await deliverWebhooks({ now: t0, baseUrl: null });
    let [d] = await deliveriesOf(t.id);
    expect(d).toMatchObject({ status: "PENDING", attempts: 1, lastStatusCode: 500, lastError: "HTTP 500: receiver says 500" });
    expect(d!.nextAttemptAt.getTime()).toBe(t0.getTime() + RETRY_DELAYS_MS[0]);
    // Not due yet: nothing is sent.
    await deliverWebhooks({ now: new Date(t0.getTime() + RETRY_DELAYS_MS[0] - 1000), baseUrl: null });
    expect(rx.got).toHaveLength(1);
    const t1 = new Date(t0.getTime() + RETRY_DELAYS_MS[0]);
    await deliverWebhooks({ now: t1, baseUrl: null });
    [d] = await deliveriesOf(t.id);
    expect(d).toMatchObject({ status: "DELIVERED", attempts: 2, lastStatusCode: 200, lastError: null, deliveredAt: t1 });
    expect(rx.got).toHaveLength(2);
    // The same delivery id and body each time, so the receiver can de-duplicate.
    expect(rx.got[1]!.headers["x-probebook-delivery"]).toBe(rx.got[0]!.headers["x-probebook-delivery"]);
    expect(rx.got[1]!.body).toBe(rx.got[0]!.body);
  });

  it("a dead port: every attempt after its backoff, then FAILED with the error kept", async () => {
    const t = await target({ url: await deadUrl() });
    await alert();
    let now = new Date();
    for (let i = 0; i < MAX_ATTEMPTS; i++) {
      await deliverWebhooks({ now, baseUrl: null });
      const [d] = await deliveriesOf(t.id);
      expect(d!.attempts).toBe(i + 1);
      expect(d!.lastError).toMatch(/ECONNREFUSED/);
      expect(d!.lastStatusCode).toBeNull();
      if (i < MAX_ATTEMPTS - 1) {
        expect(d!.status).toBe("PENDING");
        expect(d!.nextAttemptAt.getTime() - now.getTime()).toBe(RETRY_DELAYS_MS[i]);
        now = d!.nextAttemptAt;
      } else expect(d!.status).toBe("FAILED");
    }
    // FAILED is final: a much later tick does not send again.
    await deliverWebhooks({ now: new Date(now.getTime() + 7 * 86_400_000), baseUrl: null });
    expect((await deliveriesOf(t.id))[0]!.attempts).toBe(MAX_ATTEMPTS);
  });

  it("a redirect is not followed; an error answer is read only in part", async () => {
    const rx = await receiver([302]);
    const t = await target({ url: rx.url });
    const o = await testWebhook({ id: t.id, baseUrl: null });
    expect(o).toMatchObject({ status: "FAILED", statusCode: 302 });
    expect(o.error).toMatch(/redirects are not followed/);
    expect(rx.got).toHaveLength(1);
  });

  it("two deliverers at once deliver each alert once", async () => {
    const rx = await receiver();
    const t = await target({ url: rx.url });
    const alerts = await Promise.all(Array.from({ length: 6 }, () => alert()));
    const now = new Date();
    await Promise.all([deliverWebhooks({ now, baseUrl: null }), deliverWebhooks({ now, baseUrl: null }), fanOutAlerts({ now })]);
    await deliverWebhooks({ now, baseUrl: null }); // whatever a skipped fan-out left
    const rows = await deliveriesOf(t.id);
    expect(rows.map((r) => r.alertId).sort()).toEqual(alerts.map((a) => a.id).sort());
    expect(rows.every((r) => r.status === "DELIVERED" && r.attempts === 1)).toBe(true);
    const ids = rx.got.map((g) => g.headers["x-probebook-delivery"]);
    expect(ids).toHaveLength(6);
    expect(new Set(ids).size).toBe(6);
  });
});

describe("fan-out", () => {
  it("enabled targets only, improvements only where asked, alerts raised after the target only", async () => {
    const rx = await receiver();
    const regressionsOnly = await target({ url: rx.url });
    const withImprovements = await target({ url: rx.url, includeImprovements: true });
    const disabled = await target({ url: rx.url, enabled: false });
    const created = await db().webhookTarget.findUniqueOrThrow({ where: { id: regressionsOnly.id } });
    const before = await alert("REGRESSION", new Date(created.createdAt.getTime() - 60_000));
    const regression = await alert("REGRESSION");
    const improvement = await alert("IMPROVEMENT");
    await fanOutAlerts();
    await fanOutAlerts(); // idempotent
    const alertsOf = async (id: string) => (await deliveriesOf(id)).map((d) => d.alertId).sort();
    expect(await alertsOf(regressionsOnly.id)).toEqual([regression.id]);
    expect(await alertsOf(withImprovements.id)).toEqual([regression.id, improvement.id].sort());
    expect(await alertsOf(disabled.id)).toEqual([]);
    expect(await alertsOf(withImprovements.id)).not.toContain(before.id);
    // Enabled later: it gets the alerts raised since it was created.
    await updateWebhook({ id: disabled.id, input: { enabled: true } });
    await fanOutAlerts();
    expect(await alertsOf(disabled.id)).toEqual([regression.id]);
    const out = await deliverWebhooks({ baseUrl: null });
    expect(out.filter((o) => o.status === "DELIVERED")).toHaveLength(4);
    expect(rx.got.map((g) => g.headers["x-probebook-event"]).sort()).toEqual(["alert.improvement", "alert.regression", "alert.regression", "alert.regression"]);
  });
});

describe("validation", () => {
  it("names the field: a URL with credentials, ftp://, no name", () => {
    for (const url of ["https://user:pw@hooks.example.com/x", "ftp://hooks.example.com/x", "not a url"]) {
      const r = createWebhookSchema.safeParse({ name: "x", url });
      expect(r.success, url).toBe(false);
      expect(r.error!.issues[0]!.path).toEqual(["url"]);
      expect(r.error!.issues[0]!.message).toMatch(/http:\/\/ or https:\/\/ URL without a user name or password/);
    }
    const noName = createWebhookSchema.safeParse({ name: " ", url: "https://hooks.example.com" });
    expect(noName.error!.issues[0]!.path).toEqual(["name"]);
    expect(updateWebhookSchema.safeParse({ secret: "mine" }).success).toBe(false); // no choosing one's own secret
    // PostgreSQL text holds no NUL: refused with the field named rather than failing at the insert.
    expect(createWebhookSchema.safeParse({ name: "a\u0000b", url: "https://hooks.example.com" }).error!.issues[0]!.path).toEqual(["name"]);
    expect(createWebhookSchema.safeParse({ name: "a", url: "https://hooks.example.com/\u0000" }).error!.issues[0]!.path).toEqual(["url"]);
  });

  it("an unknown target is a 404, not a 500", async () => {
    const id = crypto.randomUUID();
    await expect(updateWebhook({ id, input: { enabled: false } })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(testWebhook({ id, baseUrl: null })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(listWebhookDeliveries({ id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(deleteWebhook({ id })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("deleting a target drops its pending deliveries: they are never sent", async () => {
    const rx = await receiver();
    const t = await target({ url: rx.url });
    await alert();
    await fanOutAlerts();
    expect(await deliveriesOf(t.id)).toHaveLength(1);
    expect(await deleteWebhook({ id: t.id })).toEqual({ name: t.name, url: rx.url });
    expect(await deliveriesOf(t.id)).toHaveLength(0);
    await deliverWebhooks({ baseUrl: null });
    expect(rx.got).toHaveLength(0);
  });
});
