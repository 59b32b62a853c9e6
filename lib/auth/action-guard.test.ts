import crypto from "node:crypto";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { connectTestDatabase } from "../testing/db";
import { AppError } from "../http/app-error";
import { createApiToken } from "../server/tokens/create-api-token";
import { createUser } from "../server/users/create-user";

// Next's request scope, as an action sees it: the request's headers and no cookies.
const request = { headers: new Headers() };
vi.mock("next/headers", () => ({
  headers: async () => request.headers,
  cookies: async () => ({ get: () => undefined, getAll: () => [], set: () => undefined, delete: () => undefined, has: () => false }),
}));
const { buttonAction, formAction } = await import("./action-guard");

connectTestDatabase();

/** Where a redirect() thrown by the guard points, or the thrown error itself. */
async function outcome(p: Promise<unknown>): Promise<string> {
  try {
    return `returned ${JSON.stringify(await p)}`;
  } catch (err) {
    const digest = (err as { digest?: string }).digest ?? "";
    if (digest.startsWith("NEXT_REDIRECT")) return `redirect ${digest.split(";")[2]}`;
    throw err;
  }
}

async function tokenFor(role: "VIEWER" | "OPERATOR" | "ADMIN"): Promise<string> {
  const user = await createUser({ email: `guard-${crypto.randomUUID().slice(0, 8)}@example.com`, password: "a-long-password-1", role });
  return (await createApiToken({ userId: user.id, name: "guard" })).token;
}

const form = (fields: Record<string, string>) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.set(k, v);
  return f;
};

describe("server action guards (every refusal the app's own, never a thrown 500)", () => {
  beforeEach(() => {
    request.headers = new Headers({ referer: "http://probebook.test/hosts/abc?tab=runs" });
  });

  it("signed out: to sign-in, back to the page the form was on (a path of ours only)", async () => {
    const ran = vi.fn();
    expect(await outcome(buttonAction(form({}), "VIEWER", ran))).toBe(`redirect /sign-in?next=${encodeURIComponent("/hosts/abc?tab=runs")}`);
    expect(await outcome(formAction(form({}), "OPERATOR", (error) => ({ error }), ran))).toBe(`redirect /sign-in?next=${encodeURIComponent("/hosts/abc?tab=runs")}`);
    request.headers = new Headers({ referer: "http://evil.example//evil.example/x" });
    expect(await outcome(buttonAction(form({}), "VIEWER", ran))).toBe(`redirect /sign-in?next=${encodeURIComponent("/")}`);
    expect(ran).not.toHaveBeenCalled();
  });

  it("below the role: the Not allowed page naming the role, or the form's error", async () => {
    request.headers.set("authorization", `Bearer ${await tokenFor("VIEWER")}`);
    const ran = vi.fn();
    expect(await outcome(buttonAction(form({}), "ADMIN", ran))).toBe("redirect /forbidden?need=admin");
    expect(await outcome(formAction(form({}), "OPERATOR", (error) => ({ error }), ran))).toBe(`returned ${JSON.stringify({ error: "This needs the operator role; you are viewer." })}`);
    expect(ran).not.toHaveBeenCalled();
  });

  it("anything but a form, an id that is not one, a use case's refusal: never a throw", async () => {
    request.headers.set("authorization", `Bearer ${await tokenFor("ADMIN")}`);
    const ok = vi.fn(async () => undefined);
    for (const garbage of [undefined, "x", { get: 1 }, ["a"]]) {
      expect(await outcome(buttonAction(garbage, "ADMIN", ok)), JSON.stringify(garbage)).toBe("redirect /forbidden?refused=invalid");
      expect(await outcome(formAction(garbage, null, (message) => ({ message }), ok))).toBe(`returned ${JSON.stringify({ message: "This action takes a form." })}`);
    }
    expect(ok).not.toHaveBeenCalled();
    const { uuidSchema } = await import("../http/params");
    expect(await outcome(buttonAction(form({ hostId: "nope" }), "ADMIN", async ({ form }) => void uuidSchema().parse(form.get("hostId"))))).toBe("redirect /forbidden?refused=invalid");
    expect(await outcome(buttonAction(form({}), "ADMIN", async () => Promise.reject(new AppError("NOT_FOUND", "No such token."))))).toBe("redirect /forbidden?refused=not-found");
    expect(await outcome(buttonAction(form({}), "ADMIN", async () => Promise.reject(new AppError("FORBIDDEN", "Not yours."))))).toBe("redirect /forbidden?refused=forbidden");
    expect(await outcome(formAction(form({}), "ADMIN", (error) => ({ error }), async () => Promise.reject(new AppError("CONFLICT", "Taken."))))).toBe(`returned ${JSON.stringify({ error: "Taken." })}`);
  });

  it("the action's own redirect passes, and a real failure still throws", async () => {
    request.headers.set("authorization", `Bearer ${await tokenFor("OPERATOR")}`);
    const { redirect } = await import("next/navigation");
    expect(await outcome(formAction(form({}), "OPERATOR", (error) => ({ error }), async () => redirect("/runs")))).toBe("redirect /runs");
    await expect(buttonAction(form({}), "OPERATOR", async () => Promise.reject(new TypeError("bug")))).rejects.toThrow("bug");
  });
});
