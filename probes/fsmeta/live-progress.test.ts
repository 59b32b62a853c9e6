import { describe, expect, it } from "vitest";
import { fixture } from "../core/testing";
import { fsmetaLiveProgress } from "./live-progress";
import { fsmetaParamsSchema } from "./params";

const params = fsmetaParamsSchema.parse({ target: "/t", files: 50_000, dirs: 1 });

describe("fsmeta live progress while fio creates files", () => {
  it("names the step without fio's wrapped ETA or a 0 % it cannot know", () => {
    const live = fsmetaLiveProgress(params);
    live.append("Jobs: 1 (f=0): [R(1),P(2)][0.0%][r=81.1MiB/s][r=20.8k IOPS][eta 74565d:09h:42m:21s]\r");
    const p = live.current();
    expect(p).toMatchObject({ done: 0, total: 3, label: "create (step 1 of 3), 20.8k files/s", withinStepUnknown: true });
    expect(p?.label).not.toMatch(/eta|74565/);
  });

  it("keeps fio's percentage when its ETA is a real one, and reads a real capture to the end", () => {
    const live = fsmetaLiveProgress(params);
    live.append("Jobs: 1 (f=0): [_(1),R(1),P(1)][33.3%][r=330MiB/s][r=84.4k IOPS][eta 00m:02s]\r");
    expect(live.current()?.withinStepUnknown).toBeUndefined();
    expect(live.current()?.done).toBeCloseTo(1.333, 3);
    const whole = fsmetaLiveProgress(params);
    const text = fixture("fsmeta", "fsmeta-flat-50k-loop-ext4.txt");
    whole.append(text.slice(0, text.indexOf("[eta 74565d") + 30));
    expect(whole.current()).toMatchObject({ label: expect.stringMatching(/^create \(step 1 of 3\)/), withinStepUnknown: true });
  });
});
