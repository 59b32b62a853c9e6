// The agent as one executable on a host with neither Node nor a compiler: a minimal Debian root
// (e2e/agent/debian-root.ts). There, the one-line installer the Add-host page shows fetches the
// executable from this server, checks it and lays out a hardened systemd unit (systemctl is a
// recording fake: no systemd runs in a chroot); the installed agent, started as the unit would
// start it, registers and runs dd to SUCCEEDED; --uninstall removes everything.
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "../fixtures";
import { apiTokenFor, bearer, signInAs } from "../helpers";
import { ensureDebianRoot, mountOverlay, runInRoot, startInRoot, type Overlay } from "./debian-root";

const repo = path.resolve(__dirname, "..", "..");
const isRoot = process.getuid?.() === 0;
// The build makes the executable for this machine's architecture only.
const ARCH = process.arch === "arm64" ? "linux-arm64" : "linux-x64";
const FAKE_SYSTEMCTL = `#!/bin/sh
# Records what the installer asks of systemd; no service manager runs in this root.
printf '%s\\n' "$*" >>/var/log/fake-systemctl.log
case $1 in is-active) exit 3 ;; esac
exit 0
`;

test.describe.configure({ mode: "serial" });
test.skip(!isRoot, "needs root: debootstrap, chroot and mount namespaces");

let overlay: Overlay | null = null;
let agent: ReturnType<typeof startInRoot> | null = null;

test.afterAll(async () => {
  await agent?.stop();
  overlay?.remove();
});

const sha256 = (file: string) => createHash("sha256").update(fs.readFileSync(file)).digest("hex");
const modeOf = (file: string) => (fs.statSync(file).mode & 0o7777).toString(8).padStart(4, "0");

/** uid and gid of a user in the root's own /etc/passwd (the host has no such user). */
function userIn(dir: string, name: string): { uid: number; gid: number } | null {
  const line = fs.readFileSync(path.join(dir, "etc/passwd"), "utf8").split("\n").find((l) => l.startsWith(`${name}:`));
  if (!line) return null;
  const [, , uid, gid] = line.split(":");
  return { uid: Number(uid), gid: Number(gid) };
}

test("the agent executable installs with the one line, registers and runs dd in a Debian root without Node or a compiler", async ({ page, request, baseURL }) => {
  test.setTimeout(8 * 60_000);
  const built = Date.now();
  execFileSync(process.execPath, ["--import", "tsx", "scripts/build-agent.ts"], { cwd: repo, stdio: "pipe" });
  const binary = path.join(repo, `dist/agent/probebook-agent-${ARCH}`);
  console.log(`build:agent ${((Date.now() - built) / 1000).toFixed(1)} s, ${(fs.statSync(binary).size / 2 ** 20).toFixed(1)} MiB`);

  const rooted = Date.now();
  const cached = ensureDebianRoot((l) => console.log(l));
  console.log(`Debian root ready in ${((Date.now() - rooted) / 1000).toFixed(1)} s`);
  overlay = mountOverlay(cached);
  const dir = overlay.dir;
  const inRoot = (...command: string[]) => runInRoot(dir, command);

  // The host this stands for: no Node, no npm, no compiler (the executable brings its runtime).
  const tools = inRoot("sh", "-c", "for c in node nodejs npm npx gcc cc g++ c++ make python3; do command -v $c; done; true");
  expect(tools.code, tools.out).toBe(0);
  expect(tools.out.trim()).toBe("");
  expect(inRoot("sh", "-c", "command -v curl sha256sum useradd").code).toBe(0);
  fs.writeFileSync(path.join(dir, "usr/bin/systemctl"), FAKE_SYSTEMCTL, { mode: 0o755 });

  // The one line the Add-host page shows, with its real server URL and token.
  await signInAs(page, "operator");
  await page.goto("/hosts/new");
  await page.getByLabel("Host name").fill(`e2e-binary-${Date.now()}`);
  await page.getByRole("button", { name: "Add host" }).click();
  const token = (await page.getByTestId("registration-token").textContent())!.trim();
  const line = (await page.getByTestId("install-command").textContent())!.trim();
  expect(line).toBe(`curl -fsSL ${baseURL}/agent/install.sh | sudo sh -s -- --token ${token}`);
  await expect(page.getByRole("button", { name: "Copy the install command" })).toBeVisible();

  // As root in the root there is no sudo: the same line without it, and one --allow dir.
  const installLine = `${line.replace("| sudo sh", "| sh")} --allow /srv/probebook`;
  const installed = runInRoot(dir, ["sh", "-c", installLine]);
  expect(installed.code, installed.out).toBe(0);
  expect(installed.out).toContain(`installed /usr/local/bin/probebook-agent (${ARCH}`);

  const at = (p: string) => path.join(dir, p);
  const svc = userIn(dir, "probebook-agent");
  expect(svc, "the service user").not.toBeNull();
  const owner = (p: string) => ({ uid: fs.statSync(at(p)).uid, gid: fs.statSync(at(p)).gid });
  expect(sha256(at("usr/local/bin/probebook-agent"))).toBe(sha256(binary));
  expect([modeOf(at("usr/local/bin/probebook-agent")), owner("usr/local/bin/probebook-agent")]).toEqual(["0755", { uid: 0, gid: 0 }]);
  expect(fs.readFileSync(at("etc/probebook-agent/token"), "utf8")).toBe(`${token}\n`);
  expect([modeOf(at("etc/probebook-agent/token")), owner("etc/probebook-agent/token")]).toEqual(["0600", { uid: 0, gid: 0 }]);
  expect([modeOf(at("etc/probebook-agent")), owner("etc/probebook-agent")]).toEqual(["0700", { uid: 0, gid: 0 }]);
  expect([modeOf(at("var/lib/probebook-agent")), owner("var/lib/probebook-agent")]).toEqual(["0700", svc]);
  expect([modeOf(at("srv/probebook")), owner("srv/probebook")]).toEqual(["0750", svc]);
  const unitPath = at("etc/systemd/system/probebook-agent.service");
  expect(modeOf(unitPath)).toBe("0644");
  const unit = fs.readFileSync(unitPath, "utf8");
  expect(unit).toContain(`ExecStart=/usr/local/bin/probebook-agent --server ${baseURL} --allow /srv/probebook --state-dir /var/lib/probebook-agent --token-file %d/token\n`);
  for (const l of ["User=probebook-agent", "LoadCredential=token:/etc/probebook-agent/token", "ReadWritePaths=/srv/probebook", "ProtectSystem=strict", "NoNewPrivileges=yes", "CapabilityBoundingSet=\n", "WantedBy=multi-user.target"]) {
    expect(unit).toContain(l);
  }
  expect(unit).not.toContain(token);
  expect(fs.readFileSync(at("var/log/fake-systemctl.log"), "utf8")).toBe("daemon-reload\nis-active --quiet probebook-agent.service\nenable --now probebook-agent.service\n");

  // systemd's own verdict on the unit's sandbox (the host's systemd-analyze, offline).
  const analyzed = spawnSync("systemd-analyze", ["security", "--offline=true", unitPath], { encoding: "utf8" });
  const exposure = /Overall exposure level for probebook-agent\.service: (\d+\.\d+)/.exec(analyzed.stdout)?.[1];
  expect(exposure, analyzed.stdout + analyzed.stderr).toBeDefined();
  console.log(`systemd-analyze security exposure: ${exposure}`);
  expect(Number(exposure)).toBeLessThanOrEqual(4.0);

  // The installed agent as the unit starts it: the service user, the token as a credential file.
  const creds = at("run/credentials/probebook-agent.service");
  fs.mkdirSync(creds, { recursive: true });
  fs.chmodSync(path.dirname(creds), 0o755);
  fs.chmodSync(creds, 0o500);
  fs.copyFileSync(at("etc/probebook-agent/token"), path.join(creds, "token"));
  fs.chownSync(creds, svc!.uid, svc!.gid);
  fs.chownSync(path.join(creds, "token"), svc!.uid, svc!.gid);
  fs.chmodSync(path.join(creds, "token"), 0o400);
  const execStart = /^ExecStart=(.*)$/m.exec(unit)![1]!.replace("%d", "/run/credentials/probebook-agent.service").split(" ");
  agent = startInRoot(dir, execStart, { user: `${svc!.uid}:${svc!.gid}`, env: { HOME: "/var/lib/probebook-agent" } });
  await expect.poll(() => agent!.output(), { timeout: 30_000 }).toContain("registered as host");
  const hostId = /\(([0-9a-f-]{36})\)/.exec(agent.output())![1]!;
  // node-pty's addon, written from inside the executable to a private directory, checked and loaded.
  const native = at("var/lib/probebook-agent/native");
  expect(modeOf(native)).toBe("0700");
  expect(fs.readdirSync(native)).toEqual([expect.stringMatching(/^pty-[0-9a-f]{16}\.node$/)]);

  const api = bearer(await apiTokenFor("operator"));
  const created = await request.post("/api/runs", { headers: api, data: { hostId, probe: "dd", params: { target: "/srv/probebook", sizeMiB: 16, direct: false } } });
  expect(created.status(), await created.text()).toBe(201);
  const body = (await created.json()) as { id?: string; runs?: { id: string }[] };
  const id = body.id ?? body.runs![0]!.id;
  const run = async () => (await (await request.get(`/api/runs/${id}`, { headers: api })).json()) as { status: string; result: { tool: string; measurements: unknown[] } | null };
  await expect.poll(async () => (await run()).status, { timeout: 60_000 }).toBe("SUCCEEDED");
  const done = await run();
  expect(done.result?.tool).toBe("dd");
  expect(done.result?.measurements.length).toBeGreaterThan(0);
  expect(await (await request.get(`/api/runs/${id}/log`, { headers: api })).text()).toContain("copied");
  await agent.stop();
  agent = null;

  // --uninstall: the service stopped and disabled, every file and the user gone.
  const removed = runInRoot(dir, ["sh", "-c", `curl -fsSL ${baseURL}/agent/install.sh | sh -s -- --uninstall`]);
  expect(removed.code, removed.out).toBe(0);
  for (const p of ["usr/local/bin/probebook-agent", "etc/systemd/system/probebook-agent.service", "etc/probebook-agent", "var/lib/probebook-agent", "srv/probebook"]) {
    expect(fs.existsSync(at(p)), `${p} after --uninstall`).toBe(false);
  }
  expect(userIn(dir, "probebook-agent")).toBeNull();
  expect(fs.readFileSync(at("var/log/fake-systemctl.log"), "utf8")).toMatch(/\ndisable --now probebook-agent\.service\ndaemon-reload\n$/);
});

test("the server answers each download with the file, its checksum, or an error that says what to do", async ({ request }) => {
  const binary = path.join(repo, `dist/agent/probebook-agent-${ARCH}`);
  test.skip(!fs.existsSync(binary), "the first test builds the executable");
  const res = await request.head(`/agent/download/${ARCH}`);
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toBe("application/octet-stream");
  expect(res.headers()["content-length"]).toBe(String(fs.statSync(binary).size));
  expect(res.headers()["content-disposition"]).toBe(`attachment; filename="probebook-agent-${ARCH}"`);
  expect(res.headers()["x-checksum-sha256"]).toBe(sha256(binary));
  const sum = await request.get(`/agent/download/${ARCH}.sha256`);
  expect(await sum.text()).toBe(`${sha256(binary)}  probebook-agent-${ARCH}\n`);
  expect(await sum.text()).toBe(fs.readFileSync(`${binary}.sha256`, "utf8"));

  if (ARCH === "linux-x64") {
    const arm = await request.get("/agent/download/linux-arm64");
    expect(arm.status()).toBe(404);
    expect(((await arm.json()) as { error: string }).error).toMatch(/linux-arm64.*npm run build:agent.*cannot cross-build/);
  }
  const bad = await request.get("/agent/download/windows-x64");
  expect(bad.status()).toBe(400);
  expect(((await bad.json()) as { error: string }).error).toMatch(/^arch must be linux-x64 or linux-arm64/);

  const script = await request.get("/agent/install.sh");
  expect(script.status()).toBe(200);
  expect(script.headers()["content-type"]).toContain("text/x-shellscript");
  expect(await script.text()).toContain(`SERVER='${new URL(res.url()).origin}'`);
});
