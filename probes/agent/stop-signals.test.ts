import { describe, expect, it } from "vitest";
import { RELAY_WINDOW_MS, StopSignals } from "./stop-signals";

describe("StopSignals", () => {
  const clock = () => {
    let t = 1000;
    return { now: () => t, advance: (ms: number) => (t += ms) };
  };

  it("drains on the first signal and takes copies within the relay window as the same one", () => {
    const c = clock();
    const s = new StopSignals(RELAY_WINDOW_MS, c.now);
    expect(s.stopping).toBe(false);
    expect(s.receive()).toBe("drain");
    expect(s.stopping).toBe(true);
    // tsx's parent and npm relay within milliseconds
    c.advance(2);
    expect(s.receive()).toBe("copy");
    c.advance(30);
    expect(s.receive()).toBe("copy");
    c.advance(RELAY_WINDOW_MS - 33);
    expect(s.receive()).toBe("copy");
  });

  it("takes a signal after the window as a deliberate second request: exit now", () => {
    const c = clock();
    const s = new StopSignals(RELAY_WINDOW_MS, c.now);
    expect(s.receive()).toBe("drain");
    c.advance(RELAY_WINDOW_MS);
    expect(s.receive()).toBe("now");
    c.advance(5000);
    expect(s.receive()).toBe("now");
  });

  it("measures the window from the first signal, so copies cannot keep extending it", () => {
    const c = clock();
    const s = new StopSignals(100, c.now);
    expect(s.receive()).toBe("drain");
    for (let i = 0; i < 4; i++) {
      c.advance(20);
      expect(s.receive()).toBe("copy");
    }
    c.advance(40);
    expect(s.receive()).toBe("now");
  });
});
