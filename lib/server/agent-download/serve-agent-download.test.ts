import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { serveAgentDownload } from "./serve-agent-download";
import { serveInstallScript } from "./serve-install-script";

const dir = mkdtempSync(path.join(os.tmpdir(), "pb-agent-dist-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const sha = (s: string) => createHash("sha256").update(s).digest("hex");

describe("GET /agent/download/<arch>", () => {
  it("refuses an unknown arch with 400 naming arch", async () => {
    const res = await serveAgentDownload("windows-x64", dir);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe('arch must be linux-x64 or linux-arm64 (optionally with .sha256), not "windows-x64"');
    expect((await serveAgentDownload("..%2Fetc", dir)).status).toBe(400);
  });

  it("answers 404 naming npm run build:agent before the build, and why arm64 is not built on x64", async () => {
    const res = await serveAgentDownload("linux-x64", dir);
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: string }).error).toContain("run `npm run build:agent` on the server");
    const sum = await serveAgentDownload("linux-x64.sha256", dir);
    expect(sum.status).toBe(404);
    if (process.arch === "x64") {
      const arm = await serveAgentDownload("linux-arm64", dir);
      expect(arm.status).toBe(404);
      expect(((await arm.json()) as { error: string }).error).toMatch(/Node cannot cross-build one.*Build it on an arm64 machine/);
    }
  });

  it("streams the file with its type, name and SHA-256, and hashes it again once it is rebuilt", async () => {
    const file = path.join(dir, "probebook-agent-linux-x64");
    writeFileSync(file, "first build");
    const res = await serveAgentDownload("linux-x64", dir);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/octet-stream");
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="probebook-agent-linux-x64"');
    expect(res.headers.get("x-checksum-sha256")).toBe(sha("first build"));
    expect(await res.text()).toBe("first build");
    expect(await (await serveAgentDownload("linux-x64.sha256", dir)).text()).toBe(`${sha("first build")}  probebook-agent-linux-x64\n`);

    writeFileSync(file, "second build, longer");
    utimesSync(file, new Date(), new Date(Date.now() + 5000));
    const again = await serveAgentDownload("linux-x64.sha256", dir);
    expect(await again.text()).toBe(`${sha("second build, longer")}  probebook-agent-linux-x64\n`);
  });
});

describe("GET /agent/install.sh", () => {
  it("fills in the server's URL", async () => {
    const res = await serveInstallScript("https://probebook.example.com/");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/x-shellscript; charset=utf-8");
    const text = await res.text();
    expect(text).toMatch(/^#!\/bin\/sh\n/);
    expect(text).toContain("SERVER='https://probebook.example.com'\n");
    expect(text).not.toContain("@@PROBEBOOK_SERVER_URL@@");
  });

  it("refuses a URL that cannot go into a shell script", async () => {
    const res = await serveInstallScript("http://evil$(id)'x");
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toContain("set PUBLIC_URL to a plain http(s) URL");
  });
});
