// The catalogue's validators, as the server calls them (no file to read) and as the agent does.
import { describe, expect, it } from "vitest";
import { ARM_TUNABLE_NAMES, getTunable, notArmSetting } from "./catalogue";

describe("tunables catalogue", () => {
  it("checks a scheduler against the disk's own list on the agent, and against the kernel's schedulers where the list is not known", () => {
    const sched = getTunable("queue/scheduler")!;
    expect(sched.validate("kyber", "none [mq-deadline] bfq")).toMatchObject({ ok: false, error: 'must be one of none, mq-deadline, bfq, got "kyber"' });
    expect(sched.validate("kyber", null)).toEqual({ ok: true, value: "kyber" });
    expect(sched.validate("none; reboot", null)).toMatchObject({ ok: false, error: expect.stringContaining("none, mq-deadline, kyber, bfq") });
  });

  it("refuses actions and unknown names as arm settings, and lists only settings", () => {
    expect(notArmSetting("vm.drop_caches")).toMatch(/is an action, not a setting/);
    expect(notArmSetting("kernel.core_pattern")).toMatch(/not in Probebook's tunable catalogue/);
    expect(notArmSetting("queue/nr_requests")).toBeNull();
    expect(ARM_TUNABLE_NAMES).not.toContain("vm.drop_caches");
    expect(ARM_TUNABLE_NAMES).toContain("queue/read_ahead_kb");
  });
});
