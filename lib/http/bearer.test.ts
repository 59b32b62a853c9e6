import { describe, expect, it } from "vitest";
import { AppError } from "./app-error";
import { bearerMatches, bearerToken, requireBearer } from "./bearer";

describe("bearerToken", () => {
  it("reads the token of a Bearer header, whatever the scheme's case", () => {
    expect(bearerToken("Bearer pbt_abc")).toBe("pbt_abc");
    expect(bearerToken("bearer   pba_x-y")).toBe("pba_x-y");
  });
  it("tells a missing header from a malformed one", () => {
    expect(bearerToken(null)).toBeUndefined();
    expect(bearerToken("")).toBeUndefined();
    expect(bearerToken("Basic dXNlcjpwdw==")).toBeNull();
    expect(bearerToken("Bearer")).toBeNull();
    expect(bearerToken("Bearer a b")).toBeNull();
  });
});

describe("requireBearer", () => {
  it("returns a token with the expected prefix", () => {
    expect(requireBearer("Bearer pba_secret", "pba_", "need an agent credential")).toBe("pba_secret");
  });
  it("answers 401 with the caller's message otherwise", () => {
    for (const header of [null, "Bearer pbt_token", "Token pba_x"]) {
      let caught: unknown;
      try {
        requireBearer(header, "pba_", "need an agent credential");
      } catch (err) {
        caught = err;
      }
      expect(caught).toBeInstanceOf(AppError);
      expect((caught as AppError).code).toBe("UNAUTHORIZED");
      expect((caught as AppError).message).toBe("need an agent credential");
    }
  });
});

describe("bearerMatches", () => {
  it("accepts only the exact token, of any length, and nothing without a bearer header", () => {
    const token = "metrics-0123456789abcdef";
    expect(bearerMatches(`Bearer ${token}`, token)).toBe(true);
    expect(bearerMatches(`bearer ${token}`, token)).toBe(true);
    expect(bearerMatches(`Bearer ${token}x`, token)).toBe(false);
    expect(bearerMatches(`Bearer ${token.slice(0, -1)}`, token)).toBe(false);
    expect(bearerMatches("Bearer x", token)).toBe(false);
    expect(bearerMatches(null, token)).toBe(false);
    expect(bearerMatches(`Basic ${token}`, token)).toBe(false);
  });
});
