// Next.js lists its compiler for every platform as optional dependencies. A registry that only
// carries the Linux builds leaves the others out of package-lock.json, and `npm ci` then refuses
// the lock as out of sync. Recording them as optional, platform-restricted entries lets `npm ci`
// skip them on Linux exactly as it would with a full registry. Run after `npm install` changes the lock.
import fs from "node:fs";

const lock = JSON.parse(fs.readFileSync("package-lock.json", "utf8"));
const next = lock.packages["node_modules/next"];
const platforms = {
  "@next/swc-darwin-arm64": { os: ["darwin"], cpu: ["arm64"] },
  "@next/swc-darwin-x64": { os: ["darwin"], cpu: ["x64"] },
  "@next/swc-win32-arm64-msvc": { os: ["win32"], cpu: ["arm64"] },
  "@next/swc-win32-x64-msvc": { os: ["win32"], cpu: ["x64"] },
};
let added = 0;
for (const [name, target] of Object.entries(platforms)) {
  const key = `node_modules/${name}`;
  const version = next.optionalDependencies?.[name];
  if (!version || lock.packages[key]) continue;
  lock.packages[key] = { version, cpu: target.cpu, license: "MIT", optional: true, os: target.os, engines: { node: ">= 10" } };
  added++;
}
fs.writeFileSync("package-lock.json", `${JSON.stringify(lock, null, 2)}\n`);
console.log(`recorded ${added} foreign-platform Next.js compiler entries`);
