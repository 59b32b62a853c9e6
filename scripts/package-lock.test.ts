// A fresh clone must stay clean after `npm install`, whichever npm the supported Node versions
// bring (Node 20 and 22 bundle npm 10, later ones npm 11). npm 11 writes a "libc" field on
// glibc/musl-only optional packages (sharp's, Next's swc) that npm 10 does not know and deletes
// on every install, so the committed lockfile carries none: both versions then leave it as it is.
// (.ci/run also runs `npm install --package-lock-only` and fails on any change to the file.)
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(__dirname, "..");
const lock = JSON.parse(readFileSync(path.join(root, "package-lock.json"), "utf8")) as {
  lockfileVersion: number;
  packages: Record<string, { libc?: unknown; dependencies?: Record<string, string>; devDependencies?: Record<string, string>; optionalDependencies?: Record<string, string> }>;
};
const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
};

describe("package-lock.json", () => {
  it("has no field npm 10 would delete (libc), so npm install leaves a fresh clone clean", () => {
    const withLibc = Object.entries(lock.packages)
      .filter(([, p]) => p.libc !== undefined)
      .map(([name]) => name);
    expect(withLibc, "remove their \"libc\" entries (npm 11 added them; npm 10 deletes them on install)").toEqual([]);
    expect(lock.lockfileVersion).toBe(3);
  });

  it("lists exactly package.json's dependencies at its root", () => {
    const top = lock.packages[""]!;
    expect(top.dependencies ?? {}).toEqual(pkg.dependencies ?? {});
    expect(top.devDependencies ?? {}).toEqual(pkg.devDependencies ?? {});
    expect(top.optionalDependencies ?? {}).toEqual(pkg.optionalDependencies ?? {});
  });
});
