import { describe, expect, it } from "vitest";
import { buildFsmetaCommand, fsmetaRequiredFreeBytes, fsmetaTimeoutSec } from "./command";
import { fsmetaParamsSchema, fsmetaPresets } from "./params";

const preset = (name: string, target = "/srv/t") => fsmetaParamsSchema.parse({ ...fsmetaPresets[name]?.params, target });
const issues = (input: object) => {
  const r = fsmetaParamsSchema.safeParse({ target: "/t", ...input });
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
};

describe("fsmeta params", () => {
  it("needs only a target: 50,000 files in one directory, like the article", () => {
    expect(fsmetaParamsSchema.parse({ target: "/t" })).toEqual({ target: "/t", files: 50_000, dirs: 1 });
  });

  it("bounds everything that reaches argv, with messages a person can act on", () => {
    expect(issues({ files: 99 })).toEqual(["files: files must be at least 100 (fewer finish within fio's millisecond clock)"]);
    expect(issues({ files: 1_000_001 })).toEqual(["files: files must be at most 1,000,000"]);
    expect(issues({ files: 1000.5 })).toEqual(["files: files must be a whole number"]);
    expect(issues({ dirs: 0 })).toEqual(["dirs: dirs must be at least 1"]);
    expect(issues({ dirs: 65 })).toEqual(["dirs: dirs must be at most 64"]);
    expect(issues({ files: 1000, dirs: 3 })).toEqual(["files: files must split evenly over the directories (a multiple of dirs)"]);
    expect(issues({ target: "/srv/a\\b" })).toEqual(["target: target may contain letters, digits, spaces and / . _ - + @ , = : only", "target: fio cannot use a target containing a backslash (it only understands \\: escapes)"]);
    expect(issues({ target: "relative" })[0]).toMatch(/absolute/);
    expect(issues({ files: 1_000_000, dirs: 64 })).toEqual([]);
  });

  it("has a flat and a tree preset of 50,000 files and a quick one", () => {
    expect(Object.fromEntries(Object.entries(fsmetaPresets).map(([k, v]) => [k, v.params]))).toEqual({
      "flat-50k": { files: 50_000, dirs: 1 },
      "tree-50k": { files: 50_000, dirs: 10 },
      quick: { files: 5_000, dirs: 1 },
    });
  });
});

describe("fsmeta command", () => {
  it("flat: one fio process, create then stat then delete on the same names in the run directory", () => {
    const cmd = buildFsmetaCommand(preset("flat-50k"), "/srv/t/probebook-run-AbC123");
    expect(cmd).toMatchObject({ file: "fio", cwd: "/srv/t/probebook-run-AbC123", env: { LC_ALL: "C" }, timeoutSec: 120 + 2000 });
    const step = (name: string, engine: string) => [
      `--name=${name}`, "--stonewall", `--ioengine=${engine}`, "--directory=/srv/t/probebook-run-AbC123", "--filename_format=probebook-fsmeta.$filenum",
      "--nrfiles=50000", "--numjobs=1", "--filesize=4k", "--fallocate=none", "--openfiles=1", "--create_on_open=1", "--file_service_type=sequential",
    ];
    expect(cmd.args).toEqual([
      "--output-format=normal,json", "--eta=always", "--group_reporting",
      ...step("create", "filecreate"), ...step("stat", "filestat"), ...step("delete", "filedelete"),
    ]);
    // The agent removes the whole run directory afterwards: no file list to clean up.
    expect(cmd.files).toBeUndefined();
  });

  it("tree: fio's exec engine makes the directories first and removes them last; one worker per directory", () => {
    const cmd = buildFsmetaCommand(preset("tree-50k"), "/srv/t/probebook-run-AbC123");
    const dirs = Array.from({ length: 10 }, (_, i) => `probebook-fsmeta/d${i}`);
    expect(cmd.args.slice(3, 11)).toEqual([
      "--name=mkdir", "--stonewall", "--ioengine=exec", "--program=mkdir", `--arguments=-p ${dirs.join(" ")}`, "--std_redirect=0", "--runtime=100ms", "--numjobs=1",
    ]);
    expect(cmd.args.slice(-8)).toEqual([
      "--name=rmdir", "--stonewall", "--ioengine=exec", "--program=rmdir", `--arguments=${dirs.join(" ")} probebook-fsmeta`, "--std_redirect=0", "--runtime=100ms", "--numjobs=1",
    ]);
    expect(cmd.args.filter((a) => a.startsWith("--filename_format="))).toEqual(Array(3).fill("--filename_format=probebook-fsmeta/d$jobnum/f.$filenum"));
    expect(cmd.args.filter((a) => a === "--nrfiles=5000")).toHaveLength(3);
    expect(cmd.args.filter((a) => a === "--numjobs=10")).toHaveLength(3);
    expect(cmd.cwd).toBe("/srv/t/probebook-run-AbC123");
  });

  it("escapes colons in the directory, which fio would split on", () => {
    expect(buildFsmetaCommand(preset("quick", "/mnt/a:b"), "/mnt/a:b/probebook-run-x").args).toContain("--directory=/mnt/a\\:b/probebook-run-x");
  });

  it("scales the timeout and the space it asks for with the number of files", () => {
    expect(fsmetaTimeoutSec(preset("quick"))).toBe(320);
    expect(fsmetaRequiredFreeBytes(preset("flat-50k"))).toBe(50_000 * 1024 + 4096);
    expect(fsmetaRequiredFreeBytes(preset("tree-50k"))).toBe(50_000 * 1024 + 10 * 4096);
  });
});
