// The suite's `test`: Playwright's own, with every API response a test sees held against
// /api/openapi.json (status, content type, JSON body). Calls made through the `request` fixture
// and `page.request` are recorded as they return, responses to the pages' own fetches (/api/*)
// as they arrive; at the end of each test any response the document does not describe fails it.
import { test as base, expect, type APIRequestContext, type APIResponse, type Response } from "@playwright/test";
import { ApiContract, type SeenResponse } from "./api-contract";

export { expect };

const CALLS = new Set(["fetch", "get", "post", "put", "patch", "delete", "head"]);

/** The same context, its calls recorded once their response has arrived (bodies are buffered by Playwright). */
function recorded(ctx: APIRequestContext, seen: Promise<SeenResponse | null>[]): APIRequestContext {
  return new Proxy(ctx, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof prop !== "string" || !CALLS.has(prop) || typeof value !== "function") return typeof value === "function" ? value.bind(target) : value;
      return async (...args: unknown[]) => {
        const res = (await (value as (...a: unknown[]) => Promise<APIResponse>).apply(target, args)) as APIResponse;
        const method = prop === "fetch" ? String((args[1] as { method?: string } | undefined)?.method ?? "GET").toUpperCase() : prop.toUpperCase();
        seen.push(apiSeen(method, res));
        return res;
      };
    },
  });
}

async function apiSeen(method: string, res: APIResponse): Promise<SeenResponse | null> {
  const body = await res.body().catch(() => null);
  if (body === null) return null;
  return { method, url: res.url(), status: res.status(), contentType: res.headers()["content-type"] ?? null, body: body.toString("utf8") };
}

async function pageSeen(res: Response): Promise<SeenResponse | null> {
  const contentType = res.headers()["content-type"] ?? null;
  // A live stream's body never ends; its status and media type are still held to the document.
  const body = contentType?.startsWith("text/event-stream") ? "" : await res.text().catch(() => null);
  if (body === null) return null;
  return { method: res.request().method(), url: res.url(), status: res.status(), contentType, body };
}

let contract: Promise<ApiContract> | null = null;

async function verify(seen: Promise<SeenResponse | null>[], baseURL: string | undefined): Promise<void> {
  const responses = (await Promise.all(seen)).filter((r): r is SeenResponse => r !== null);
  if (responses.length === 0) return;
  contract ??= fetch(new URL("/api/openapi.json", baseURL)).then(async (r) => new ApiContract((await r.json()) as Record<string, unknown>));
  const c = await contract;
  const problems = responses.map((r) => c.check(r)).filter((p): p is string => p !== null);
  expect(problems, "API responses that /api/openapi.json does not describe").toEqual([]);
}

export const test = base.extend<{ apiResponses: Promise<SeenResponse | null>[] }>({
  apiResponses: async ({ baseURL }, provide) => {
    const seen: Promise<SeenResponse | null>[] = [];
    await provide(seen);
    await verify(seen, baseURL);
  },
  request: async ({ request, apiResponses }, provide) => {
    await provide(recorded(request, apiResponses));
  },
  page: async ({ page, apiResponses }, provide) => {
    const onResponse = (res: Response) => {
      if (new URL(res.url()).pathname.startsWith("/api/")) apiResponses.push(pageSeen(res));
    };
    page.on("response", onResponse);
    const pageRequest = recorded(page.request, apiResponses);
    Object.defineProperty(page, "request", { get: () => pageRequest });
    await provide(page);
    page.off("response", onResponse);
  },
});
