import { describe, expect, it } from "vitest";
import { AppError } from "./app-error";
import { readJsonBody } from "./handle-route";
import { prototypeKeyPaths } from "./prototype-keys";

const post = (text: string) => new Request("http://x/api", { method: "POST", body: text, headers: { "content-type": "application/json" } });

describe("__proto__ keys in request bodies", () => {
  it("finds each one with its path, spelled out or escaped, at any depth", () => {
    const body: unknown = JSON.parse(`{"params":{"__proto__":{"x":1}},"arms":[{},{"tunables":{"\\u005f_proto__":"1"}}]}`);
    expect(prototypeKeyPaths(body).sort()).toEqual(["arms.1.tunables.__proto__", "params.__proto__"]);
    expect(prototypeKeyPaths(JSON.parse(`{"proto":1,"a":["__proto__"]}`))).toEqual([]);
  });

  it("walks a body nested 10,000 deep without overflowing the stack", () => {
    const deep = `${"[".repeat(10_000)}{"__proto__":1}${"]".repeat(10_000)}`;
    expect(prototypeKeyPaths(JSON.parse(deep))).toHaveLength(1);
  });

  // A zod record drops the key silently (the run's params were stored without it); an object spread would make it a prototype.
  it("readJsonBody refuses them with 400 naming the field, and reads other bodies as before", async () => {
    const err: unknown = await readJsonBody(post(`{"params":{"sizeMiB":4,"__proto__":{"polluted":true}}}`)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).status).toBe(400);
    expect((err as AppError).fieldErrors).toEqual({ "params.__proto__": [expect.stringMatching(/"__proto__" is not a field of this API/)] });
    expect(await readJsonBody(post(`{"text":"\\u001b[2J proto"}`))).toEqual({ text: "\u001b[2J proto" });
  });
});
