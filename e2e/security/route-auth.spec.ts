import fs from "node:fs";
import path from "node:path";
import { expect, test } from "../fixtures";
import type { Role } from "../../lib/api/operation";
import { accessPolicy } from "../../lib/api/operations";
import { apiTokenFor, bearer } from "../helpers";

type Need = "public" | "agent" | "VIEWER" | "OPERATOR" | "ADMIN";

/**
 * Who may call each route handler, read from the operations' declarations (lib/api/<area>.ts),
 * the same ones the handlers enforce and the document states. The test below walks app/api and
 * fails for any handler that is not a declared operation.
 */
const NEED: Record<Role, Need> = { public: "public", agent: "agent", viewer: "VIEWER", operator: "OPERATOR", admin: "ADMIN" };
const POLICY: Record<string, Need> = Object.fromEntries(Object.entries(accessPolicy()).map(([key, role]) => [key, NEED[role]]));

const RANK = { VIEWER: 1, OPERATOR: 2, ADMIN: 3 } as const;
const root = path.resolve(__dirname, "..", "..");

function routeTable(): { key: string; method: string; url: string }[] {
  const out: { key: string; method: string; url: string }[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name === "route.ts") {
        const rel = `/${path.relative(path.join(root, "app"), path.dirname(p)).split(path.sep).join("/")}`;
        const src = fs.readFileSync(p, "utf8");
        for (const m of src.matchAll(/export (?:const|async function) (GET|POST|PUT|PATCH|DELETE)\b/g)) {
          const url = rel.replace(/\[id\]/g, "00000000-0000-4000-8000-000000000000").replace(/\[slug\]/g, "no-such-slug");
          out.push({ key: `${m[1]} ${rel}`, method: m[1]!, url });
        }
      }
    }
  };
  walk(path.join(root, "app", "api"));
  return out;
}

test("every API route handler has an access decision", () => {
  const missing = routeTable().filter((r) => !(r.key in POLICY)).map((r) => r.key);
  expect(missing, "add these routes to POLICY").toEqual([]);
});

test("protected routes answer 401 without credentials and 403 below their role", async ({ request }) => {
  const tokens = { VIEWER: await apiTokenFor("viewer"), OPERATOR: await apiTokenFor("operator") };
  for (const r of routeTable()) {
    const need = POLICY[r.key];
    if (!need || need === "public") continue;
    const call = (headers: Record<string, string>) =>
      request.fetch(r.url, { method: r.method, headers: { ...headers, "content-type": "application/json" }, data: r.method === "GET" ? undefined : "{}" });
    const anonymous = await call({});
    expect(anonymous.status(), `${r.key} without credentials`).toBe(401);
    if (need === "agent") {
      // A user's API token is not an agent credential.
      expect((await call(bearer(tokens.OPERATOR))).status(), `${r.key} with a user token`).toBe(401);
      continue;
    }
    for (const role of ["VIEWER", "OPERATOR"] as const) {
      if (RANK[role] >= RANK[need]) continue;
      const res = await call(bearer(tokens[role]));
      expect(res.status(), `${r.key} as ${role.toLowerCase()}`).toBe(403);
      expect(JSON.stringify(await res.json())).not.toMatch(/at \w+ \(|prisma|SELECT /i);
    }
  }
});
