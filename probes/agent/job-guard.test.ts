import { randomUUID } from "node:crypto";
import { lstatSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { guardJob, type GuardOptions } from "./job-guard";

// /tmp/…/allowed (the --allow dir), /tmp/…/allowed2 (a sibling sharing its prefix), /tmp/…/outside
const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), "probebook-guard-")));
const allowed = path.join(root, "allowed");
const sub = path.join(allowed, "sub");
const sibling = path.join(root, "allowed2");
const outside = path.join(root, "outside");
for (const d of [allowed, sub, sibling, outside]) mkdirSync(d, { recursive: true });
symlinkSync("/etc", path.join(allowed, "escape"));
symlinkSync(outside, path.join(allowed, "escape-rel"));
symlinkSync(sub, path.join(allowed, "inner-link"));
symlinkSync(allowed, path.join(root, "allowed-link"));
writeFileSync(path.join(allowed, "a-file"), "");
afterAll(() => rmSync(root, { recursive: true, force: true }));

const opts: GuardOptions = { allowedDirs: [allowed] };
const job = (probe: string, params: Record<string, unknown>) => ({ runId: randomUUID(), probe, params });
const dd = (target: string, extra: Record<string, unknown> = {}) => job("dd", { target, sizeMiB: 1, blockSizeKiB: 1024, ...extra });

async function refusal(j: ReturnType<typeof job>, o: GuardOptions = opts): Promise<string> {
  const r = await guardJob(j, o);
  if (r.ok) throw new Error(`expected a refusal, the guard accepted ${JSON.stringify(r.command)}`);
  return r.reason;
}

describe("guardJob accepts", () => {
  it("a dd write inside the allowed dir, with the tool's absolute path", async () => {
    const r = await guardJob(dd(sub), opts);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.target).toBe(sub);
    expect(r.command.file).toMatch(/^\/.*\/dd$/);
    // a private directory of the run's own, mode 0700, inside the target
    expect(path.dirname(r.runDir)).toBe(sub);
    expect(lstatSync(r.runDir).mode & 0o7777).toBe(0o700);
    expect(r.command.cwd).toBe(r.runDir);
    expect(r.command.args).toContain(`of=${r.runDir}/probebook-dd.tmp`);
    rmSync(r.runDir, { recursive: true });
  });

  it("the allowed dir itself, and symlinks that stay inside, built on the real path", async () => {
    expect((await guardJob(dd(allowed), opts)).ok).toBe(true);
    const r = await guardJob(dd(path.join(allowed, "inner-link")), opts);
    expect(r.ok && r.target).toBe(sub);
    expect(r.ok && path.dirname(r.command.cwd)).toBe(sub);
    // --allow given through a symlink
    expect((await guardJob(dd(sub), { allowedDirs: [path.join(root, "allowed-link")] })).ok).toBe(true);
  });

  it("sar, which writes nothing, without a free-space check", async () => {
    const r = await guardJob(job("sar", { target: allowed, sections: ["B"], interval: 1, count: 1 }), {
      ...opts,
      freeBytes: async () => 0,
    });
    expect(r.ok).toBe(true);
  });

  it("unknown keys, which never reach argv (the schema drops them)", async () => {
    const r = await guardJob(job("fio", { target: sub, exec_prerun: "sh -c 'rm -rf /'", args: ["--exec_prerun=sh"] }), opts);
    expect(JSON.stringify(r)).not.toMatch(/exec_prerun|rm -rf/);
  });
});

describe("guardJob refuses", () => {
  it("a target outside the allowed dirs", async () => {
    expect(await refusal(dd(outside))).toBe(`target ${outside} is outside the allowed directories (${allowed})`);
    expect(await refusal(dd("/etc"))).toMatch(/outside the allowed directories/);
    // a sibling whose name starts with the allowed dir's name
    expect(await refusal(dd(sibling))).toMatch(/outside the allowed directories/);
  });

  it("'..' segments, even ones that would land inside", async () => {
    expect(await refusal(dd(`${allowed}/../../etc`))).toMatch(/'\.\.' segments/);
    expect(await refusal(dd(`${sub}/../sub`))).toMatch(/'\.\.' segments/);
  });

  it("symlink escapes, naming the real path", async () => {
    expect(await refusal(dd(path.join(allowed, "escape")))).toBe(
      `target ${path.join(allowed, "escape")} (/etc) is outside the allowed directories (${allowed})`,
    );
    expect(await refusal(dd(path.join(allowed, "escape-rel")))).toMatch(/outside the allowed/);
  });

  it("NUL bytes and control characters", async () => {
    expect(await refusal(dd(`${sub}\0/../../etc`))).toBe("parameters must not contain NUL bytes");
    expect(await refusal(job("dd", { target: sub, sizeMiB: 1, mode: "write\0" }))).toBe("parameters must not contain NUL bytes");
    expect(await refusal(dd(`${sub}\n`))).toMatch(/control characters/);
  });

  it("unknown probe ids", async () => {
    expect(await refusal(job("bash", { target: sub }))).toBe('unknown probe "bash": this agent runs only iozone, dd, sar, fio, fsmeta');
    expect(await refusal(job("", {}))).toMatch(/unknown probe ""/);
    expect(await refusal(job("__proto__", { target: sub }))).toMatch(/unknown probe/);
  });

  it("tampered parameters, with the field errors", async () => {
    const reason = await refusal(dd(sub, { sizeMiB: "1; rm -rf /" }));
    expect(reason).toMatch(/^Invalid dd parameters: sizeMiB: /);
    expect(await refusal(dd(sub, { blockSizeKiB: 1000 }))).toMatch(/blockSizeKiB: .*power of two/);
    expect(await refusal(dd(sub, { mode: "copy" }))).toMatch(/mode/);
    expect(await refusal(job("dd", { sizeMiB: 1 }))).toMatch(/target/);
    expect(await refusal(dd("relative/dir"))).toMatch(/absolute path/);
  });

  it("absurd sizes: past the schema, or past the free space", async () => {
    expect(await refusal(dd(sub, { sizeMiB: 1e12 }))).toMatch(/sizeMiB/);
    expect(await refusal(dd(sub, { sizeMiB: -1 }))).toMatch(/sizeMiB/);
    expect(await refusal(dd(sub, { sizeMiB: Number.NaN }))).toMatch(/sizeMiB/);
    // 1 TiB is a valid size; this disk does not have it
    const reason = await refusal(dd(sub, { sizeMiB: 1024 * 1024 }));
    expect(reason).toMatch(new RegExp(`^needs 1024\\.06 GiB free in ${sub}, has \\d+\\.\\d\\d GiB$`));
  });

  it("a write that fits only without the margin", async () => {
    const freeBytes = async () => 100 * 1024 * 1024;
    expect(await refusal(dd(sub, { sizeMiB: 64 }), { ...opts, freeBytes })).toBe(`needs 0.13 GiB free in ${sub}, has 0.10 GiB`);
    expect((await guardJob(dd(sub, { sizeMiB: 32 }), { ...opts, freeBytes })).ok).toBe(true);
  });

  it("a missing target, or one that is not a directory", async () => {
    expect(await refusal(dd(path.join(allowed, "missing")))).toBe(`target ${path.join(allowed, "missing")} does not exist`);
    expect(await refusal(dd(path.join(allowed, "a-file")))).toBe(`target ${path.join(allowed, "a-file")} is not a directory`);
  });

  it("a tool that is not installed, with the install hint", async () => {
    const reason = await refusal(job("iozone", { target: sub, mode: "auto", fileSizeMiB: 1 }), { ...opts, findTool: async () => null });
    expect(reason).toMatch(/^iozone is not installed on this host: iozone3 is in Debian's non-free/);
  });

  it("everything when no allowed dir exists any more", async () => {
    expect(await refusal(dd(sub), { allowedDirs: [path.join(root, "gone")] })).toMatch(/outside the allowed directories \(none\)/);
  });
});
