// POST /api/experiments with raw JSON bodies, through the real route on a real database: an arm's
// tunables are refused by name unless they are catalogue settings with values its validators take.
import crypto from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { registerAgent } from "@/lib/server/agent/register-agent";
import { getExperiment } from "@/lib/server/experiments/get-experiment";
import { listExperiments } from "@/lib/server/experiments/list-experiments";
import { createHost } from "@/lib/server/hosts/create-host";
import { createApiToken } from "@/lib/server/tokens/create-api-token";
import { createUser } from "@/lib/server/users/create-user";
import { connectTestDatabase } from "@/lib/testing/db";
import { POST } from "./route";

connectTestDatabase();

const tool = { installed: true, version: "9.1", path: "/usr/bin/dd" };
let token = "";
let hostId = "";

beforeAll(async () => {
  const user = await createUser({ email: `exp-route-${crypto.randomUUID().slice(0, 8)}@example.test`, password: "long enough 1", role: "OPERATOR" });
  token = (await createApiToken({ userId: user.id, name: "experiments route test" })).token;
  // A host whose agent allows every tunable, so that only the values decide.
  const capabilities = {
    agentVersion: "1",
    tools: { dd: tool },
    allowedDirs: ["/srv/pb"],
    lab: null,
    tunables: { allowed: ["vm.dirty_ratio", "vm.drop_caches", "queue/scheduler", "queue/read_ahead_kb", "queue/nr_requests"], dropCaches: true, current: [] },
  };
  const host = await createHost({ name: `exp-route-${crypto.randomUUID().slice(0, 8)}`, createdById: user.id });
  await registerAgent({ registrationToken: host.registrationToken, profile: { targets: [{ path: "/srv/pb", fsType: "ext4", freeBytes: 10 * 2 ** 30 }] }, capabilities });
  hostId = host.id;
});

/** POSTs `{ hostId, probe: dd, params, arms: [{ tunables: {} }, { tunables: <secondArm> }] }` with the second arm as raw JSON text. */
async function post(secondArm: string) {
  const body = `{"hostId":"${hostId}","probe":"dd","params":{"target":"/srv/pb","sizeMiB":4,"blockSizeKiB":1024,"mode":"write","direct":true,"fdatasync":true},"arms":[{"label":"base","tunables":{}},{"tunables":${secondArm}}],"repeats":{"min":3,"max":3}}`;
  const res = await POST(new Request("http://127.0.0.1/api/experiments", { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body }));
  return { status: res.status, json: (await res.json()) as { error?: string; fieldErrors?: Record<string, string[]> } };
}

describe("POST /api/experiments: an arm's tunables", () => {
  it("refuses __proto__ and other keys outside the catalogue with 400 naming the field, and stores nothing", async () => {
    const before = (await listExperiments({ hostId })).length;
    for (const key of ["constructor", "kernel.core_pattern"]) {
      const r = await post(`{"${key}":"1"}`);
      expect(r.status).toBe(400);
      expect(r.json.fieldErrors?.["arms.1.tunables"]?.[0]).toMatch(new RegExp(`^"${key.replace(".", "\\.")}" is not in Probebook's tunable catalogue`));
    }
    // "__proto__" is refused where every body is read, before any schema (spelled out or escaped).
    for (const key of ["__proto__", "\\u005f_proto__"]) {
      const r = await post(`{"${key}":"1"}`);
      expect(r.status).toBe(400);
      expect(r.json.fieldErrors?.["arms.1.tunables.__proto__"]?.[0]).toMatch(/"__proto__" is not a field of this API/);
    }
    expect((await listExperiments({ hostId })).length).toBe(before);
  });

  it("refuses vm.drop_caches as a value and disk tunables out of range, naming the field and what is allowed", async () => {
    const cases: Array<[string, string, RegExp]> = [
      [`{"vm.drop_caches":"3"}`, "arms.1.tunables.vm.drop_caches", /is an action, not a setting/],
      [`{"queue/scheduler":"none; reboot"}`, "arms.1.tunables.queue/scheduler", /must be one of none, mq-deadline, kyber, bfq/],
      [`{"queue/read_ahead_kb":"99999999"}`, "arms.1.tunables.queue/read_ahead_kb", /must be from 0 to 65536, got 99999999/],
      [`{"queue/nr_requests":"1"}`, "arms.1.tunables.queue/nr_requests", /must be from 4 to 65536, got 1/],
      [`{"queue/nr_requests":"70000"}`, "arms.1.tunables.queue/nr_requests", /must be from 4 to 65536, got 70000/],
    ];
    for (const [arm, field, message] of cases) {
      const r = await post(arm);
      expect(r.status, arm).toBe(400);
      expect(r.json.fieldErrors?.[field]?.[0], arm).toMatch(message);
    }
  });

  it("takes a disk tunable the catalogue allows", async () => {
    const r = await post(`{"queue/scheduler":"mq-deadline","queue/read_ahead_kb":"1024"}`);
    expect(r.status).toBe(201);
    const exp = await getExperiment({ id: (r.json as { id: string }).id });
    expect(exp.arms[1]).toMatchObject({ tunables: { "queue/scheduler": "mq-deadline", "queue/read_ahead_kb": "1024" } });
  });
});
