import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { encodeRunNotification, notifySql, readRunNotification, runChannel, type RunNotification } from "./notifications";
import { pgPool } from "./pg-pool";
import { connectTestDatabase } from "./testing/db";

connectTestDatabase();

describe("run notifications", () => {
  it("reads back what it writes", () => {
    const all: RunNotification[] = [
      { kind: "status" },
      { kind: "telemetry", t: 12.5 },
      { kind: "chunk", seq: 7 },
      { kind: "chunks", items: [[3, "line 3\n"], [4, 'a "quoted" \\ line\r\n']] },
    ];
    for (const n of all) expect(readRunNotification(encodeRunNotification(n))).toEqual(n);
  });

  it("reads nothing from a payload it does not understand, so the view reads everything", () => {
    for (const p of ["", "hello", "chunks:", "chunks:[]", "chunks:[[1]]", "chunks:[[-1,\"x\"]]", "chunks:{", "chunk:x", "telemetry:", "statuses"]) {
      expect(readRunNotification(p), p).toBeNull();
    }
  });

  it("writes the same payloads inside SQL as in TypeScript, on the same channel", async () => {
    const id = crypto.randomUUID();
    const { rows } = await pgPool().query<{ channel: string; status: string; telemetry: string; inline: string; big: string }>(
      `SELECT ${notifySql.runChannel("$1::uuid")} AS channel,
              ${notifySql.status()} AS status,
              ${notifySql.telemetry("t")} AS telemetry,
              ${notifySql.chunks("small", "7")} AS inline,
              ${notifySql.chunks("repeat('x', 9000)", "9")} AS big
       FROM (SELECT 12.5::float8 AS t, json_agg(json_build_array(s, d) ORDER BY s)::text AS small
             FROM (VALUES (3, E'line 3\\n'), (4, 'four')) AS v(s, d)) AS x`,
      [id],
    );
    const r = rows[0]!;
    expect(r.channel).toBe(runChannel(id));
    expect(readRunNotification(r.status)).toEqual({ kind: "status" });
    expect(readRunNotification(r.telemetry)).toEqual({ kind: "telemetry", t: 12.5 });
    expect(readRunNotification(r.inline)).toEqual({ kind: "chunks", items: [[3, "line 3\n"], [4, "four"]] });
    expect(readRunNotification(r.big)).toEqual({ kind: "chunk", seq: 9 });
  });
});
