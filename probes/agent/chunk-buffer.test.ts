import { describe, expect, it } from "vitest";
import { ChunkBuffer, chunkCut } from "./chunk-buffer";
import type { Chunk } from "../protocol/schemas";

describe("chunkCut", () => {
  it("cuts at the maximum, one earlier inside a surrogate pair", () => {
    expect(chunkCut("abcdef", 4)).toBe(4);
    expect(chunkCut("abc", 4)).toBe(3);
    expect(chunkCut("abc\u{1F600}x", 4)).toBe(3);
    expect(chunkCut("ab\u{1F600}x", 4)).toBe(4);
  });
});

describe("ChunkBuffer", () => {
  function buffer(busy: boolean) {
    const sealed: Chunk[] = [];
    let ready = 0;
    const b = new ChunkBuffer({ firstSeq: 7, flushMs: 50, busy: () => busy, onSealed: (c) => sealed.push(c), ready: () => ready++ });
    return { b, sealed, ready: () => ready };
  }

  it("seals on the next tick when idle, coalescing what came in the same tick", async () => {
    const { b, sealed, ready } = buffer(false);
    b.write("a");
    b.write("b");
    expect(sealed).toEqual([]);
    await new Promise((r) => setImmediate(r));
    expect(sealed).toEqual([{ seq: 7, data: "ab" }]);
    expect(ready()).toBe(1);
    expect(b.lastSeq).toBe(7);
  });

  it("waits up to flushMs while an upload is in flight", async () => {
    const { b, sealed } = buffer(true);
    b.write("x");
    await new Promise((r) => setTimeout(r, 20));
    expect(sealed).toEqual([]);
    await new Promise((r) => setTimeout(r, 150));
    expect(sealed).toEqual([{ seq: 7, data: "x" }]);
    expect(b.empty).toBe(true);
  });
});
