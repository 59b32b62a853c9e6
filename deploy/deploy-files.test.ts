// The deployment files against the README: every documented setting reaches the app in
// docker-compose.yml, secrets stay out of the image, and the image runs as an unprivileged user.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";

const root = path.resolve(import.meta.dirname, "..");
const read = (file: string) => fs.readFileSync(path.join(root, file), "utf8");

/** The variables in the first column of the first table under "## Configuration". */
function documentedServerVariables(): string[] {
  const readme = read("README.md");
  const section = readme.slice(readme.indexOf("\n## Configuration\n"));
  const lines = section.split("\n");
  const first = lines.findIndex((l) => l.startsWith("| variable |"));
  const names: string[] = [];
  for (const line of lines.slice(first + 2)) {
    if (!line.startsWith("|")) break;
    const m = /^\| `([A-Z][A-Z0-9_]*)` \|/.exec(line);
    if (!m) throw new Error(`README configuration row without a variable: ${line}`);
    names.push(m[1]!);
  }
  return names;
}

/** Every variable named in a README configuration table (server and development). */
function allDocumentedVariables(): Set<string> {
  const readme = read("README.md");
  return new Set([...readme.matchAll(/^\| `([A-Z][A-Z0-9_]*)` \|/gm)].map((m) => m[1]!));
}

function appEnvironment(): Record<string, string> {
  const compose = parse(read("docker-compose.yml")) as { services: { app: { environment: Record<string, unknown> | string[] } } };
  const env = compose.services.app.environment;
  if (Array.isArray(env)) return Object.fromEntries(env.map((e) => [e.split("=")[0]!, e.slice(e.indexOf("=") + 1)]));
  return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, String(v ?? "")]));
}

/** Dockerfile stages: the lines from each FROM to the next. */
function stages(): { from: string; lines: string[] }[] {
  const out: { from: string; lines: string[] }[] = [];
  // Continuation lines joined, comments dropped: one instruction per entry.
  const instructions = read("Dockerfile")
    .replace(/\\\n/g, " ")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith("#"));
  for (const line of instructions) {
    if (/^FROM\s/i.test(line)) out.push({ from: line, lines: [] });
    else out.at(-1)?.lines.push(line);
  }
  return out;
}

/** process.env names the server's own code reads (tests, the agent and tools aside). */
function variablesTheServerReads(): Set<string> {
  const found = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(rel);
      else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) {
        for (const m of read(rel).matchAll(/process\.env\.([A-Z][A-Z0-9_]*)|process\.env\[["']([A-Z][A-Z0-9_]*)["']\]/g)) found.add((m[1] ?? m[2])!);
      }
    }
  };
  for (const dir of ["app", "lib"]) walk(dir);
  for (const file of ["scripts/start.ts", "scripts/serve.ts", "instrumentation.ts", "proxy.ts"]) {
    if (!fs.existsSync(path.join(root, file))) continue;
    for (const m of read(file).matchAll(/process\.env\.([A-Z][A-Z0-9_]*)/g)) found.add(m[1]!);
  }
  return found;
}

// Set by the runtime or the launchers, not by an operator.
const INTERNAL = new Set(["NODE_ENV", "NEXT_RUNTIME", "NEXT_PHASE", "PATH", "HOME", "USER", "CI", "PROBEBOOK_ROOT", "NEXT_TELEMETRY_DISABLED"]);

describe("docker-compose.yml", () => {
  it("passes every variable of the README's configuration table to the app", () => {
    const documented = documentedServerVariables();
    expect(documented.length).toBeGreaterThan(10);
    expect(documented).toEqual(expect.arrayContaining(["DATABASE_URL", "SESSION_SECRET", "PUBLIC_URL", "TRUSTED_PROXIES", "HOST", "LOG_FORMAT", "METRICS_TOKEN"]));
    const env = appEnvironment();
    const missing = documented.filter((name) => !(name in env));
    expect(missing, "documented in README.md but not passed to the app").toEqual([]);
    const undocumented = Object.keys(env).filter((name) => !documented.includes(name));
    expect(undocumented, "passed to the app but not in README.md's configuration table").toEqual([]);
  });

  it("documents every variable the server reads", () => {
    const documented = allDocumentedVariables();
    const undocumented = [...variablesTheServerReads()].filter((name) => !INTERNAL.has(name) && !documented.has(name));
    expect(undocumented, "read by the server but not in README.md's configuration tables").toEqual([]);
  });

  it("makes only POSTGRES_PASSWORD required, and gives the others defaults", () => {
    const text = read("docker-compose.yml");
    const required = [...text.matchAll(/\$\{([A-Z_]+):\?/g)].map((m) => m[1]);
    expect(required).toEqual(["POSTGRES_PASSWORD"]);
    expect(text).toMatch(/SESSION_SECRET: \$\{SESSION_SECRET:-\}/);
  });

  const composeCli = spawnSync("docker-compose", ["version"], { encoding: "utf8" });
  it.skipIf(composeCli.status !== 0)("validates with docker-compose config (needs docker-compose on PATH)", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "probebook-compose-"));
    try {
      fs.copyFileSync(path.join(root, "docker-compose.yml"), path.join(dir, "docker-compose.yml"));
      fs.writeFileSync(path.join(dir, ".env"), "POSTGRES_PASSWORD=pw-from-env-file\nPUBLIC_URL=https://probebook.example\nTRUSTED_PROXIES=10.0.0.0/8\n");
      const r = spawnSync("docker-compose", ["-f", "docker-compose.yml", "config"], { cwd: dir, encoding: "utf8" });
      expect(r.status, r.stderr).toBe(0);
      const config = parse(r.stdout) as { services: { app: { environment: Record<string, string> } } };
      expect(config.services.app.environment).toMatchObject({
        DATABASE_URL: "postgresql://probebook:pw-from-env-file@db:5432/probebook",
        PUBLIC_URL: "https://probebook.example",
        TRUSTED_PROXIES: "10.0.0.0/8",
        SESSION_SECRET: "",
        QUEUE_OFFLINE_TIMEOUT_MIN: "60",
      });
      // Without the password the file refuses to render, naming it.
      fs.writeFileSync(path.join(dir, ".env"), "");
      const refused = spawnSync("docker-compose", ["-f", "docker-compose.yml", "config"], { cwd: dir, encoding: "utf8" });
      expect(refused.status).not.toBe(0);
      expect(refused.stderr).toMatch(/set POSTGRES_PASSWORD in \.env/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("Dockerfile and .dockerignore", () => {
  it("keeps .env files and local state out of the build context", () => {
    const ignored = read(".dockerignore")
      .split("\n")
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith("#"));
    expect(ignored).toEqual(expect.arrayContaining([".env", ".env.*", ".data", "node_modules", ".next", "dist", "test-results", ".git"]));
  });

  it("copies no .env into any stage", () => {
    for (const stage of stages()) {
      for (const line of stage.lines.filter((l) => /^(COPY|ADD)\s/i.test(l))) expect(line, stage.from).not.toMatch(/\.env/);
    }
  });

  it("runs the final stage as a user that is not root, without a compiler", () => {
    const all = stages();
    expect(all.length).toBeGreaterThanOrEqual(2);
    const runtime = all.at(-1)!;
    const users = runtime.lines.filter((l) => /^USER\s/i.test(l)).map((l) => l.split(/\s+/)[1]!);
    expect(users.length).toBeGreaterThan(0);
    expect(users.at(-1)).not.toMatch(/^(root|0)(:.*)?$/);
    expect(runtime.lines.join("\n")).not.toMatch(/apt-get install|g\+\+|make /);
    // It ships the build stage's pruned tree, not a fresh install with dev dependencies.
    expect(all.slice(0, -1).some((s) => s.lines.some((l) => /npm prune --omit=dev/.test(l)))).toBe(true);
    expect(runtime.lines.some((l) => /^CMD\s/.test(l) && l.includes("scripts/start.ts"))).toBe(true);
  });
});

describe("reverse-proxy examples", () => {
  const nginx = read("deploy/nginx.conf");
  /** The body of the nginx location whose line matches `head`. */
  const location = (head: RegExp) => {
    const start = nginx.search(head);
    expect(start, String(head)).toBeGreaterThan(0);
    return nginx.slice(start, nginx.indexOf("\n    }", start));
  };
  const seconds = (text: string, directive: string) => {
    const m = new RegExp(`${directive}\\s+(\\d+)(s|m|h)?;`).exec(text);
    expect(m, directive).not.toBeNull();
    return Number(m![1]) * ({ s: 1, m: 60, h: 3600 }[(m![2] ?? "s") as "s" | "m" | "h"]);
  };

  it("lets nginx carry what the app sends and the agents need, sized from the code", async () => {
    const { agentApi } = await import("../lib/api/agent");
    const { claimRequestSchema } = await import("../probes/protocol/schemas");
    const largestBody = Math.max(...Object.values(agentApi).map((op) => ("maxBodyBytes" in op ? (op.maxBodyBytes ?? 0) : 0)));
    const limit = /client_max_body_size (\d+)m;/.exec(nginx);
    expect(Number(limit![1]) * 1024 * 1024).toBeGreaterThan(largestBody);
    expect(location(/location ~ \^\/api\/runs\/\[\^\/\]\+\/events\$/)).toMatch(/proxy_buffering off;/);
    const longestClaim = claimRequestSchema.shape.waitSec.unwrap().maxValue!;
    expect(longestClaim).toBe(900);
    expect(seconds(location(/location = \/api\/agent\/jobs\/claim/), "proxy_read_timeout")).toBeGreaterThan(longestClaim);
    const socket = location(/location = \/api\/agent\/socket/);
    expect(socket).toMatch(/proxy_set_header Upgrade\s+\$http_upgrade;/);
    expect(socket).toMatch(/proxy_set_header Connection\s+\$probebook_connection;/);
    // A location with its own proxy_set_header inherits none: the forwarding headers are repeated.
    for (const header of ["Host", "X-Forwarded-For", "X-Forwarded-Proto", "X-Forwarded-Host"]) expect(socket).toContain(`proxy_set_header ${header} `);
    expect(nginx).toMatch(/TRUSTED_PROXIES=127\.0\.0\.1/);
  });

  const hasNginx = spawnSync("nginx", ["-v"]).status === 0;
  it.skipIf(!hasNginx)("passes nginx -t (needs nginx on PATH)", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "probebook-nginx-"));
    try {
      // A throwaway certificate for the paths the example names, and a main file that includes it.
      const cert = spawnSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", `${dir}/privkey.pem`, "-out", `${dir}/fullchain.pem`, "-days", "1", "-subj", "/CN=localhost"]);
      expect(cert.status).toBe(0);
      fs.writeFileSync(path.join(dir, "probebook.conf"), nginx.replaceAll("/etc/ssl/probebook/", `${dir}/`));
      fs.writeFileSync(
        path.join(dir, "nginx.conf"),
        `pid ${dir}/nginx.pid;\nerror_log ${dir}/error.log;\nevents {}\nhttp {\n  access_log off;\n  client_body_temp_path ${dir}/body;\n  proxy_temp_path ${dir}/proxy;\n  include ${dir}/probebook.conf;\n}\n`,
      );
      const r = spawnSync("nginx", ["-t", "-c", path.join(dir, "nginx.conf")], { encoding: "utf8" });
      expect(r.stderr).toMatch(/test is successful/);
      expect(r.status).toBe(0);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  const hasCaddy = spawnSync("caddy", ["version"]).status === 0;
  it.skipIf(!hasCaddy)("passes caddy validate (needs caddy on PATH)", () => {
    const r = spawnSync("caddy", ["validate", "--adapter", "caddyfile", "--config", path.join(root, "deploy", "Caddyfile")], { encoding: "utf8" });
    expect(`${r.stdout}${r.stderr}`).toMatch(/Valid configuration/);
    expect(r.status).toBe(0);
    const caddyfile = read("deploy/Caddyfile");
    expect(caddyfile).toMatch(/max_size 40MB/);
    expect(caddyfile).toMatch(/flush_interval -1/);
  });
});
