// An experiment arm's tunables are checked by the body's schema with the catalogue the agent uses
// (probes/tunables/catalogue.ts): only its names, and each value by its own validator.
import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { fieldErrorsOf } from "../../http/handle-route";
import { createExperimentSchema } from "./experiments";

/** Field errors of a body given as JSON text, parsed as the route parses it (JSON.parse). */
function errorsOf(armsJson: string): Record<string, string[]> {
  const body = JSON.parse(`{"hostId":"${crypto.randomUUID()}","probe":"dd","params":{"target":"/srv/pb"},"arms":${armsJson}}`) as unknown;
  const parsed = createExperimentSchema.safeParse(body);
  expect(parsed.success).toBe(false);
  return parsed.success ? {} : fieldErrorsOf(parsed.error);
}

const twoArms = (tunables: string) => `[{"tunables":{}},{"tunables":${tunables}}]`;

describe("an arm's tunables", () => {
  it("refuses __proto__, which JSON.parse makes an own key, by name instead of storing an arm that changes nothing", () => {
    const body = JSON.parse(twoArms(`{"__proto__":"1"}`)) as Array<{ tunables: object }>;
    expect(Object.keys(body[1]!.tunables)).toEqual(["__proto__"]);
    expect(errorsOf(twoArms(`{"__proto__":"1"}`))["arms.1.tunables"]).toEqual([expect.stringMatching(/^"__proto__" is not in Probebook's tunable catalogue: choose from vm\.dirty_ratio, /)]);
    expect(errorsOf(twoArms(`{"constructor":"1","vm.dirty_ratio":"10"}`))["arms.1.tunables"]?.[0]).toMatch(/^"constructor" is not in/);
  });

  it("refuses a name outside the catalogue", () => {
    expect(errorsOf(twoArms(`{"kernel.core_pattern":"|/bin/sh"}`))["arms.1.tunables"]?.[0]).toMatch(/^"kernel\.core_pattern" is not in Probebook's tunable catalogue/);
  });

  it("never takes vm.drop_caches as a value: it is an action", () => {
    expect(errorsOf(twoArms(`{"vm.drop_caches":"3"}`))["arms.1.tunables.vm.drop_caches"]?.[0]).toMatch(/vm\.drop_caches is an action, not a setting: ask for a cache drop \(dropCaches\)/);
  });

  it("checks a disk's tunables, naming the field and what is allowed", () => {
    const e = errorsOf(twoArms(`{"queue/scheduler":"none; reboot","queue/read_ahead_kb":"99999999","queue/nr_requests":2}`));
    expect(e["arms.1.tunables.queue/scheduler"]).toEqual(['queue/scheduler must be one of none, mq-deadline, kyber, bfq, noop, deadline, cfq, got "none; reboot".']);
    expect(e["arms.1.tunables.queue/read_ahead_kb"]).toEqual(["queue/read_ahead_kb must be from 0 to 65536, got 99999999."]);
    expect(e["arms.1.tunables.queue/nr_requests"]).toEqual(["queue/nr_requests must be from 4 to 65536, got 2."]);
  });

  it("checks host tunables by their ranges and lists", () => {
    const e = errorsOf(twoArms(`{"vm.dirty_ratio":500,"thp.enabled":"sometimes","vm.swappiness":"5; reboot"}`));
    expect(e["arms.1.tunables.vm.dirty_ratio"]).toEqual(["vm.dirty_ratio must be from 0 to 100, got 500."]);
    expect(e["arms.1.tunables.thp.enabled"]?.[0]).toMatch(/must be one of always, madvise, never/);
    expect(e["arms.1.tunables.vm.swappiness"]?.[0]).toMatch(/expected a whole number from 0 to 200/);
  });

  it("keeps valid values as the catalogue writes them", () => {
    const parsed = createExperimentSchema.parse({
      hostId: crypto.randomUUID(),
      probe: "dd",
      params: { target: "/srv/pb" },
      arms: [{ tunables: { "queue/scheduler": " mq-deadline ", "queue/read_ahead_kb": 128 } }, { tunables: { "queue/scheduler": "none", "vm.dirty_ratio": "05" } }],
    });
    expect(parsed.arms.map((a) => a.tunables)).toEqual([{ "queue/scheduler": "mq-deadline", "queue/read_ahead_kb": "128" }, { "queue/scheduler": "none", "vm.dirty_ratio": "5" }]);
  });
});
