import { execFile } from "node:child_process";
import { constants } from "node:fs";
import { access, stat } from "node:fs/promises";
import path from "node:path";

export interface ToolOutput {
  stdout: string;
  stderr: string;
  /** null when the tool was killed (timeout) or could not be started. */
  exitCode: number | null;
}

/**
 * Runs a tool by argv (never through a shell) with LC_ALL=C, so that numbers and messages
 * are the C locale's whatever the host's locale is. Never throws: a missing tool, a timeout
 * or a non-zero exit all come back as data, and collectors fill null.
 */
export function runTool(file: string, args: readonly string[], timeoutMs = 5000): Promise<ToolOutput | null> {
  return new Promise((resolve) => {
    try {
      execFile(
        file,
        [...args],
        {
          env: { ...process.env, LC_ALL: "C" },
          timeout: timeoutMs,
          killSignal: "SIGKILL",
          maxBuffer: 8 * 1024 * 1024,
          encoding: "utf8",
        },
        (error, stdout, stderr) => {
          if (error && typeof error.code === "string") return resolve(null); // ENOENT, EACCES…
          const exitCode = error ? (typeof error.code === "number" ? error.code : null) : 0;
          resolve({ stdout: String(stdout), stderr: String(stderr), exitCode });
        },
      );
    } catch {
      resolve(null);
    }
  });
}

/** stdout of a tool that exited 0, else null. */
export async function toolStdout(file: string, args: readonly string[], timeoutMs?: number): Promise<string | null> {
  const out = await runTool(file, args, timeoutMs);
  return out && out.exitCode === 0 ? out.stdout : null;
}

/**
 * Looks a command up on PATH the way execvp does, without a shell or `which`. Empty and
 * relative PATH entries are skipped: they would resolve against the agent's working directory.
 */
export async function findOnPath(name: string, pathEnv: string | undefined = process.env.PATH): Promise<string | null> {
  if (name.includes("/")) return (await isExecutableFile(name)) ? name : null;
  for (const dir of (pathEnv ?? "/usr/local/bin:/usr/bin:/bin").split(":")) {
    if (!dir || !path.isAbsolute(dir)) continue;
    const candidate = path.join(dir, name);
    if (await isExecutableFile(candidate)) return candidate;
  }
  return null;
}

async function isExecutableFile(file: string): Promise<boolean> {
  try {
    const st = await stat(file);
    if (!st.isFile()) return false;
    await access(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
