import { describe, expect, it } from "vitest";
import { Heartbeat } from "./heartbeat";
import { HttpError } from "./http-client";
import { memoryLogger } from "./logger";

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("Heartbeat", () => {
  it("beats fast while a run is active, slowly when idle, and passes cancellations on", async () => {
    const sent: string[][] = [];
    const cancelled: string[][] = [];
    let running: string[] = [];
    const hb = new Heartbeat({
      send: async (ids) => {
        sent.push(ids);
        return ids.includes("r1") ? ["r1", "someone-else"] : [];
      },
      running: () => running,
      onCancel: (ids) => cancelled.push(ids),
      onRevoked: () => undefined,
      log: memoryLogger(),
      activeMs: 30,
      idleMs: 300,
    });
    hb.start();
    await wait(100);
    expect(sent).toEqual([[]]); // one beat at start, the next idle one is 300 ms away
    running = ["r1"];
    hb.poke();
    await wait(200);
    hb.stop();
    expect(sent.length).toBeGreaterThanOrEqual(3);
    expect(sent.slice(1).every((ids) => ids[0] === "r1")).toBe(true);
    expect(cancelled[0]).toEqual(["r1"]);
    const n = sent.length;
    await wait(100);
    expect(sent.length).toBe(n);
  });

  it("skips beats while chunk uploads keep the server informed, and resumes when output goes quiet", async () => {
    const sent: string[][] = [];
    let uploadedAt = Date.now();
    const hb = new Heartbeat({
      send: async (ids) => {
        sent.push(ids);
        return [];
      },
      running: () => ["r1"],
      onCancel: () => undefined,
      onRevoked: () => undefined,
      log: memoryLogger(),
      activeMs: 40,
      lastUploadAt: () => uploadedAt,
    });
    const keepUploading = setInterval(() => (uploadedAt = Date.now()), 10);
    hb.start();
    await wait(200);
    expect(sent).toEqual([]);
    clearInterval(keepUploading);
    await wait(200);
    hb.stop();
    expect(sent.length).toBeGreaterThanOrEqual(2);
  });

  it("logs a failing server once and its recovery once; stops on a revoked credential", async () => {
    const log = memoryLogger();
    let calls = 0;
    const revoked: HttpError[] = [];
    const hb = new Heartbeat({
      send: async () => {
        calls++;
        if (calls <= 3) throw new HttpError("network", null, "ECONNREFUSED");
        if (calls === 4) return [];
        throw new HttpError("revoked", 403, "host revoked");
      },
      running: () => ["r"],
      onCancel: () => undefined,
      onRevoked: (e) => revoked.push(e),
      log,
      activeMs: 10,
    });
    hb.start();
    for (let i = 0; i < 200 && revoked.length === 0; i++) await wait(10);
    await wait(50); // no beat after the revoke
    hb.stop();
    expect(calls).toBe(5);
    expect(revoked).toHaveLength(1);
    expect(log.lines).toEqual(["warn heartbeat failed: ECONNREFUSED", "info heartbeat: the server answers again"]);
  });
});

describe("Heartbeat without idle beats (the default)", () => {
  it("sends nothing while idle and beats only while a run is active", async () => {
    const sent: string[][] = [];
    let running: string[] = [];
    const hb = new Heartbeat({
      send: async (ids) => {
        sent.push(ids);
        return [];
      },
      running: () => running,
      onCancel: () => undefined,
      onRevoked: () => undefined,
      log: memoryLogger(),
      activeMs: 30,
    });
    hb.start();
    await wait(100);
    expect(sent).toEqual([]);
    running = ["r1"];
    hb.poke();
    await wait(100);
    expect(sent.length).toBeGreaterThanOrEqual(2);
    expect(sent.every((ids) => ids[0] === "r1")).toBe(true);
    running = [];
    await wait(50);
    const n = sent.length;
    await wait(150);
    hb.stop();
    expect(sent.length).toBe(n);
  });
});
