// Appends the files a command declares (`CommandSpec.collect`) to the run's output once the tool
// has exited: the run directory is the agent's own (0700), and each entry is opened without
// following links and read only when it is a regular file.
import { constants } from "node:fs";
import { open, readdir } from "node:fs/promises";
import path from "node:path";
import type { CommandSpec } from "../catalog";
import { COLLECTED_FILE_MAX_BYTES, frameCollectedFile, isCollectableName } from "../core/collected-files";

/** Reads one file, at most `max` bytes; null when it is not a regular file or cannot be opened. */
async function readCapped(file: string, max: number): Promise<{ text: string; shown: number; total: number } | null> {
  const fh = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK).catch(() => null);
  if (!fh) return null;
  try {
    const st = await fh.stat();
    if (!st.isFile()) return null;
    const buf = Buffer.alloc(Math.min(st.size, max));
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    return { text: buf.subarray(0, bytesRead).toString("utf8"), shown: bytesRead, total: st.size };
  } finally {
    await fh.close();
  }
}

/** Writes every matching file of the command's directory, framed, through `write`; returns their names. */
export async function appendCollectedFiles(command: CommandSpec, write: (text: string) => void, max = COLLECTED_FILE_MAX_BYTES): Promise<string[]> {
  const pattern = command.collect;
  if (!pattern) return [];
  const names = (await readdir(command.cwd).catch(() => [] as string[])).filter((n) => isCollectableName(n) && pattern.test(n)).sort();
  const sent: string[] = [];
  for (const name of names) {
    const file = await readCapped(path.join(command.cwd, name), max);
    if (!file) continue;
    write(frameCollectedFile(name, file.text, file.shown, file.total));
    sent.push(name);
  }
  return sent;
}
