// Writes dirty data back and empties the page cache, dentries and inodes, so that an arm's
// probe starts from a cold cache whatever the previous arm left in memory. `sync` first:
// drop_caches only drops clean pages.
import { execFile } from "node:child_process";
import fs from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** Throws with the reason when the kernel refuses (not root, read-only /proc/sys). */
export async function dropCaches(root = "/"): Promise<void> {
  await run("sync", []);
  await fs.writeFile(path.join(root, "proc/sys/vm/drop_caches"), "3");
}
