// Share links must not publish where the data lives (issue 27, items 1 and 2): a real agent whose
// target sits under a secret-looking directory on what its profile reports as an NFS mount runs
// an experiment with one arm per directory; the experiment is shared, and an anonymous visitor of
// /c/<slug>, its JSON and its CSV finds no directory, file server or address, only aliases.
// There is no NFS here: the agent runs with a `findmnt` first on its PATH that reports the
// directory as mounted from filer01.secret.corp with the server's and the client's addresses in
// its options, which is exactly what the real findmnt prints for such a mount.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "../fixtures";
import { startAgent, type AgentHandle } from "../agent/agent-process";
import { apiTokenFor, bearer } from "../helpers";

let agent: AgentHandle | null = null;
let base = "";
let shim = "";

test.afterAll(async () => {
  await agent?.stop();
  for (const dir of [base, shim, agent?.stateDir ?? ""]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

test("an experiment shared from an NFS-mounted secret directory shows anonymous visitors only aliases", async ({ request, browser, baseURL }) => {
  test.setTimeout(300_000);
  // Short, so that an arm's default label (its path, cut at 60 characters) holds the whole secret name.
  base = fs.mkdtempSync(path.join(os.tmpdir(), "pb-"));
  const secretRoot = path.join(base, "secret-project-alpha");
  const dirs = ["db01", "db02"].map((d) => path.join(secretRoot, d));
  for (const d of dirs) fs.mkdirSync(d, { recursive: true });
  shim = fs.mkdtempSync(path.join(os.tmpdir(), "pb-findmnt-"));
  const mounts = {
    filesystems: [
      { target: "/", source: "/dev/vda1", fstype: "ext4", options: "rw,relatime" },
      { target: secretRoot, source: "filer01.secret.corp:/vol/project-alpha", fstype: "nfs4", options: "rw,relatime,vers=4.2,rsize=1048576,addr=10.1.2.3,clientaddr=10.1.2.99,sec=krb5" },
    ],
  };
  fs.writeFileSync(path.join(shim, "findmnt"), `#!/bin/sh\ncat <<'EOF'\n${JSON.stringify(mounts)}\nEOF\n`, { mode: 0o755 });

  const operator = await apiTokenFor("operator");
  const hostName = `share-redaction-${Date.now()}`;
  const created = await request.post("/api/hosts", { headers: bearer(operator), data: { name: hostName } });
  expect(created.status()).toBe(201);
  const { id: hostId, registrationToken } = (await created.json()) as { id: string; registrationToken: string };
  agent = startAgent({ server: baseURL!, token: registrationToken, allow: [secretRoot], env: { PATH: `${shim}:${process.env.PATH ?? "/usr/bin:/bin"}` } });
  await expect.poll(() => agent!.output(), { timeout: 20_000 }).toContain("registered as host");

  // Two arms, one per directory: their default labels are the directories themselves.
  const fio = { rw: "write", blockSizeKiB: 4, sizeMiB: 64, runtimeSec: 6, ioengine: "psync", iodepth: 1, numjobs: 1, direct: false };
  const exp = await request.post("/api/experiments", {
    headers: bearer(operator),
    data: { hostId, probe: "fio", params: fio, arms: dirs.map((target) => ({ target })), repeats: { min: 3, max: 3, warmup: false } },
  });
  expect(exp.status(), await exp.text()).toBe(201);
  const { id } = (await exp.json()) as { id: string };
  await expect
    .poll(async () => ((await (await request.get(`/api/experiments/${id}`, { headers: bearer(operator) })).json()) as { status: string }).status, { timeout: 240_000, intervals: [2000] })
    .toBe("FINISHED");
  const owned = (await (await request.get(`/api/experiments/${id}`, { headers: bearer(operator) })).json()) as { title: string; arms: { label: string }[] };
  // The experiment itself (signed in) names its directories: that is what the share must hide.
  expect(owned.arms.map((a) => a.label)).toEqual(dirs);
  expect(owned.title).toContain(secretRoot);

  const shared = await request.post(`/api/experiments/${id}/share`, { headers: bearer(operator) });
  expect(shared.status()).toBe(201);
  const { slug } = (await shared.json()) as { slug: string };

  const anonymous = await browser.newContext();
  const page = await anonymous.newPage();
  expect((await page.goto(`/c/${slug}`))?.status()).toBe(200);
  await expect(page.getByTestId("shared-verdict")).toBeVisible();
  const html = await page.content();
  const json = await (await anonymous.request.get(`/api/comparisons/${slug}`)).text();
  const csv = await (await anonymous.request.get(`/api/comparisons/${slug}/csv`)).text();
  await anonymous.close();

  for (const secret of ["secret-project-alpha", "project-alpha", "filer01", "secret.corp", "10.1.2.3", "10.1.2.99", base, hostName]) {
    expect(html, `the page shows ${secret}`).not.toContain(secret);
    expect(json, `the JSON shows ${secret}`).not.toContain(secret);
    expect(csv, `the CSV shows ${secret}`).not.toContain(secret);
  }
  // The share still reads: the arms and the runs' targets carry the same aliases, and the NFS
  // profile did reach the snapshot (its server and addresses aliased, its harmless options kept).
  const body = JSON.parse(json) as { title: string; experiment: { arms: { label: string }[] }; runs: { params: { target: string }; profile: { target: { source: string; mountOptions: string[]; fsType: string } } }[] };
  expect(body.experiment.arms.map((a) => a.label)).toEqual(["path 1", "path 2"]);
  expect(body.title).toBe("fio: path 1 vs path 2");
  expect(new Set(body.runs.map((r) => r.params.target))).toEqual(new Set(["path 1", "path 2"]));
  const target = body.runs[0]!.profile.target;
  expect(target.fsType).toBe("nfs4");
  expect(target.source).toMatch(/^server 1:path \d+$/);
  expect(target.mountOptions).toEqual(expect.arrayContaining(["addr=address 1", "clientaddr=address 2", "sec=krb5", "vers=4.2"]));
});
