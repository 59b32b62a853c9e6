import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { intervalMinutes, quietHours, scheduleBody, scheduleCommand } from "./commands/schedule";
import { EXIT } from "./exit-codes";

const host = "6f1c2a8e-0b7d-4c3e-9a51-2d4e6f8a0b1c";
const sid = "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d";

describe("schedule create's arguments", () => {
  it("reads --every, --quiet and the rest into the API's body", () => {
    expect([intervalMinutes("15"), intervalMinutes("15m"), intervalMinutes("1h"), intervalMinutes("1d")]).toEqual([15, 15, 60, 1440]);
    expect(quietHours("22:00-06:00")).toEqual({ quietStart: "22:00", quietEnd: "06:00" });
    expect(
      scheduleBody({ name: "nightly", host: [host], probe: "dd", preset: "write-direct", target: "/srv", param: ["sizeMiB=256"], cron: "0 3 * * *", tz: "Europe/Berlin", jitter: "60", "run-when-busy": true, quiet: "22:00-06:00" }),
    ).toEqual({
      name: "nightly",
      hostIds: [host],
      kind: "run",
      probe: "dd",
      preset: "write-direct",
      params: { sizeMiB: 256, target: "/srv" },
      cron: "0 3 * * *",
      timezone: "Europe/Berlin",
      jitterSeconds: 60,
      skipIfBusy: false,
      quietStart: "22:00",
      quietEnd: "06:00",
    });
  });

  it("refuses bad arguments with exit 2 before sending anything", () => {
    const base = { name: "n", host: [host], probe: "dd", every: "15m" };
    for (const bad of [{ ...base, every: "soon" }, { ...base, cron: "0 3 * * *" }, { ...base, every: undefined }, { ...base, host: ["web-1"] }, { ...base, quiet: "22-6" }, { ...base, jitter: "-1" }, { ...base, every: "0" }]) {
      expect(() => scheduleBody(bad)).toThrow(expect.objectContaining({ exitCode: EXIT.USAGE }));
    }
  });
});

describe("schedule commands over HTTP", () => {
  const seen: { method: string; url: string; body: string; auth: string }[] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (d: Buffer) => (body += d.toString()));
    req.on("end", () => {
      seen.push({ method: req.method ?? "", url: req.url ?? "", body, auth: req.headers.authorization ?? "" });
      const json = (status: number, v: unknown) => res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(v));
      if (req.method === "POST" && req.url === "/api/schedules") {
        const parsed = JSON.parse(body) as { cron?: string };
        if (parsed.cron === "61 * * * *") return json(400, { error: "The schedule is not valid", fieldErrors: { cron: ["Not a valid cron expression"] } });
        return json(201, { id: sid });
      }
      const row = { id: sid, name: "nightly\u001b]0;x\u0007", hosts: [{ id: host, name: "web-1" }], probe: "dd", preset: "write-direct", describe: "every 15 minutes", paused: false, nextFireAt: "2026-11-28T17:00:00.000Z", lastFiredAt: null };
      if (req.url === `/api/schedules/${sid}`) return req.method === "DELETE" ? json(200, { deleted: sid }) : json(200, { ...row, firings: [{ hostId: host, hostName: "web-1", dueAt: "2026-11-28T16:45:00.000Z", outcome: "MISSED_OFFLINE", runId: null, message: null }] });
      if (req.url === "/api/schedules") return json(200, { schedules: [row] });
      if (req.url?.endsWith("/pause")) return json(200, { paused: true, nextFireAt: null });
      json(404, { error: "No such thing" });
    });
  });
  let env: string[];
  beforeAll(async () => {
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    env = ["--server", `http://127.0.0.1:${(server.address() as AddressInfo).port}`, "--token", "pbt_test"];
  });
  afterAll(() => server.close());

  async function run(argv: string[]): Promise<{ code: number; out: string }> {
    let out = "";
    const spy = vi.spyOn(process.stdout, "write").mockImplementation((s: string | Uint8Array) => ((out += String(s)), true));
    const err = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    try {
      return { code: await scheduleCommand(argv), out };
    } finally {
      spy.mockRestore();
      err.mockRestore();
    }
  }

  it("creates, lists, shows (without escape sequences), pauses and deletes", async () => {
    expect((await run(["create", ...env, "--name", "nightly", "--host", host, "--probe", "dd", "--preset", "write-direct", "--target", "/srv", "--every", "15m"])).code).toBe(EXIT.OK);
    expect(JSON.parse(seen.find((r) => r.method === "POST")?.body ?? "{}")).toMatchObject({ intervalMinutes: 15, params: { target: "/srv" }, skipIfBusy: true });
    expect(seen[0]?.auth).toBe("Bearer pbt_test");
    const listed = await run(["list", ...env]);
    expect(listed.out).toContain("every 15 minutes");
    expect(listed.out).not.toContain("\u001b");
    expect((await run(["show", sid, ...env])).out).toMatch(/missed_offline/);
    expect(await run(["pause", sid, ...env])).toEqual({ code: EXIT.OK, out: `paused ${sid}\n` });
    expect((await run(["delete", sid, ...env])).code).toBe(EXIT.OK);
    expect(seen.at(-1)).toMatchObject({ method: "DELETE", url: `/api/schedules/${sid}` });
  });

  it("a refusal exits 5 with the server's field errors", async () => {
    await expect(scheduleCommand(["create", ...env, "--name", "n", "--host", host, "--probe", "dd", "--cron", "61 * * * *"])).rejects.toMatchObject({ exitCode: EXIT.API_ERROR, message: expect.stringContaining("cron: Not a valid cron expression") });
    await expect(scheduleCommand(["show", "nope", ...env])).rejects.toMatchObject({ exitCode: EXIT.USAGE });
  });
});
