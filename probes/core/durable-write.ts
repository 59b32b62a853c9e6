// Replace a small state file so that after a crash or power cut it holds either the old or the
// new content, never a torn mix: write a temp file, fsync it, rename over, fsync the directory.
import fs from "node:fs";
import path from "node:path";

export function writeFileDurably(file: string, text: string): void {
  const tmp = `${file}.tmp`;
  const fd = fs.openSync(tmp, "w", 0o600);
  try {
    fs.writeSync(fd, text);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(tmp, file);
  const dir = fs.openSync(path.dirname(file), "r");
  try {
    fs.fsyncSync(dir);
  } finally {
    fs.closeSync(dir);
  }
}
