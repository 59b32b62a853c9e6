import { describe, expect, it } from "vitest";
import { newUserSchema } from "../server/users/create-user";
import { AppError } from "../http/app-error";
import { checkBody } from "./check-body";
import { experimentsApi } from "./experiments";
import { runsApi } from "./runs";

const HOST = "00000000-0000-4000-8000-000000000000";

function refusal(fn: () => unknown): AppError {
  try {
    fn();
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error("not refused");
}

describe("a refused body names its field in words", () => {
  it("says Repeats must be between 1 and 20, for 0 and for 999, beside the field", () => {
    for (const repeats of [0, 999]) {
      const err = refusal(() => checkBody(runsApi.create, runsApi.create.body, { hostId: HOST, probe: "dd", params: {}, repeats }));
      expect(err.message).toBe("Repeats must be between 1 and 20.");
      expect(err.fieldErrors).toEqual({ repeats: ["Repeats must be between 1 and 20."] });
    }
  });

  it("names every field when several are wrong, and the field of zod's own wording", () => {
    const several = refusal(() => checkBody(runsApi.create, runsApi.create.body, { hostId: "x", probe: "dd", params: {}, repeats: 0 }));
    expect(several.message).toBe("Some fields are invalid: hostId, repeats.");
    const one = refusal(() => checkBody(experimentsApi.create, experimentsApi.create.body, { hostId: HOST, probe: "dd", params: {}, arms: [{ fs: "ext4" }, { fs: "xfs" }], repeats: { max: 51 } }));
    expect(one.message).toMatch(/^repeats\.max: /);
  });

  it("names the arm and the setting of a bad experiment value, not 'at least two arms'", () => {
    const err = refusal(() =>
      checkBody(experimentsApi.create, experimentsApi.create.body, { hostId: HOST, probe: "fio", params: { target: "/x" }, arms: [{ tunables: { "vm.dirty_ratio": "20" } }, { tunables: { "vm.dirty_ratio": "999" } }] }),
    );
    expect(Object.keys(err.fieldErrors!)).toEqual(["arms.1.tunables.vm.dirty_ratio"]);
    expect(err.message).toBe("vm.dirty_ratio must be from 0 to 100, got 999.");
  });

  it("takes an experiment share's expiry like a comparison's", () => {
    expect(checkBody(experimentsApi.share, experimentsApi.share.body, { expiresInDays: 7 })).toMatchObject({ expiresInDays: 7 });
    expect(refusal(() => checkBody(experimentsApi.share, experimentsApi.share.body, { expiresInDays: 0 })).fieldErrors).toEqual({ expiresInDays: ["At least 1 day."] });
  });

  it("says Email must be at most 254 characters for a new user", () => {
    const r = newUserSchema.safeParse({ email: `${"a".repeat(250)}@example.com`, password: "long enough", role: "VIEWER" });
    expect(r.success ? [] : r.error.issues.map((i) => i.message)).toEqual(["Email must be at most 254 characters."]);
  });
});
