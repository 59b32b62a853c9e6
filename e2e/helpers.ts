import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { expect, type APIRequestContext, type Page } from "@playwright/test";

const run = promisify(execFile);
const root = path.resolve(__dirname, "..");
export const e2eDataDir = path.join(root, ".data", `e2e-${process.env.E2E_PORT ?? 3210}`);

/** Runs `npm run admin -- ...` against the e2e server's database (found through the data dir). */
export async function adminCli(args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    const r = await run(process.execPath, [path.join(root, "node_modules", "tsx", "dist", "cli.mjs"), "scripts/admin.ts", ...args], {
      cwd: root,
      env: { ...process.env, PROBEBOOK_DATA_DIR: e2eDataDir, DATABASE_URL: "" },
    });
    return { stdout: r.stdout, stderr: r.stderr, code: 0 };
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; code?: number };
    return { stdout: e.stdout ?? "", stderr: e.stderr ?? "", code: typeof e.code === "number" ? e.code : 1 };
  }
}

export function uniqueEmail(tag: string): string {
  return `${tag}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}@example.com`;
}

/** Creates a user with the admin CLI and returns its credentials. */
export async function createUser(role: "admin" | "operator" | "viewer", tag = role) {
  const email = uniqueEmail(tag);
  const password = `pw-${Math.random().toString(36).slice(2)}-long`;
  const r = await adminCli(["user", "create", "--email", email, "--password", password, "--role", role]);
  if (r.code !== 0) throw new Error(`admin user create failed: ${r.stderr}`);
  return { email, password };
}

/** Signs in through the form (the one flow tests must exercise in the UI). */
export async function signInViaForm(page: Page, email: string, password: string) {
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** Signs in and waits until the session is in place (for tests whose subject is not the form). */
export async function signIn(page: Page, email: string, password: string) {
  await signInViaForm(page, email, password);
  await page.getByTestId("signed-in-as").waitFor();
}

/** A new user of the given role, signed in in this page. */
export async function signInAs(page: Page, role: "admin" | "operator" | "viewer") {
  const user = await createUser(role);
  await signIn(page, user.email, user.password);
  return user;
}

/** An API token for a new user of the given role. */
export async function apiTokenFor(role: "admin" | "operator" | "viewer"): Promise<string> {
  const { email } = await createUser(role);
  const r = await adminCli(["token", "create", "--email", email, "--name", "e2e"]);
  if (r.code !== 0) throw new Error(`admin token create failed: ${r.stderr}`);
  return r.stdout.trim();
}

export function bearer(token: string) {
  return { Authorization: `Bearer ${token}` };
}

export type Api = APIRequestContext;

const fakeTool = { installed: true, version: "1", path: "/usr/bin/x" };

/**
 * A host registered through the API with a fake agent that reports every tool and `/srv/pb` as
 * its allowed directory: for tests that speak the agent protocol themselves.
 */
export async function registerFakeAgent(request: APIRequestContext, operatorToken: string, namePrefix: string) {
  const name = `${namePrefix}-${Date.now()}-${Math.random().toString(36).slice(2, 6)}`;
  const created = await request.post("/api/hosts", { headers: bearer(operatorToken), data: { name } });
  expect(created.status()).toBe(201);
  const { id, registrationToken } = (await created.json()) as { id: string; registrationToken: string };
  const reg = await request.post("/api/agent/register", {
    data: {
      registrationToken,
      profile: { targets: [{ path: "/srv/pb", fsType: "ext4", freeBytes: 10 * 2 ** 30 }] },
      capabilities: { agentVersion: "test", tools: { iozone: fakeTool, dd: fakeTool, sar: fakeTool, fio: fakeTool }, allowedDirs: ["/srv/pb"] },
    },
  });
  expect(reg.status()).toBe(201);
  const { credential } = (await reg.json()) as { credential: string };
  return { id, credential, agent: bearer(credential) };
}

/**
 * No sideways scrolling: the page is no wider than the window; a failure names the outermost
 * elements that stick out, to say what to fix (`soft`: a walk over pages goes on and names every page).
 */
export async function fitsWidth(page: Page, where = "page", soft = false) {
  const { scrollWidth, innerWidth, wide } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
    wide: [...document.querySelectorAll("body *")]
      .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 0.5 && !(e.parentElement && e.parentElement.getBoundingClientRect().right > window.innerWidth + 0.5))
      .slice(0, 5)
      .map((e) => `${e.tagName.toLowerCase()}.${String(e.className)} ${Math.round(e.getBoundingClientRect().right)}`),
  }));
  (soft ? expect.soft : expect)(scrollWidth, `${where} is ${scrollWidth} px wide in a ${innerWidth} px window: ${wide.join("; ")}`).toBeLessThanOrEqual(innerWidth);
}
