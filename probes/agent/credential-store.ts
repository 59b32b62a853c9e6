import { randomBytes } from "node:crypto";
import { chmodSync, closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, statSync, writeSync } from "node:fs";
import path from "node:path";
import { z } from "zod";

export const CREDENTIAL_FILE = "credential.json";

const storedCredentialSchema = z.object({
  server: z.string(),
  hostId: z.string(),
  hostName: z.string(),
  credential: z.string().min(1),
});
export type StoredCredential = z.infer<typeof storedCredentialSchema>;

/** A problem the operator must fix; the message says how. */
export class CredentialError extends Error {
  override name = "CredentialError";
}

/** Servers compare equal whatever their trailing slash or letter case of the host. */
export function normaliseServer(server: string): string {
  const u = new URL(server);
  return `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, "")}`;
}

export function credentialPath(stateDir: string): string {
  return path.join(stateDir, CREDENTIAL_FILE);
}

/** The state dir holds a secret: create it 0700 (an existing one is left as the operator made it). */
export function ensureStateDir(stateDir: string): void {
  mkdirSync(stateDir, { recursive: true, mode: 0o700 });
}

export function loadCredential(stateDir: string): StoredCredential | null {
  const file = credentialPath(stateDir);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw new CredentialError(`cannot read ${file}: ${(err as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = null;
  }
  const parsed = storedCredentialSchema.safeParse(json);
  if (!parsed.success) throw new CredentialError(`${file} is damaged: delete it and register again with a new --token`);
  // Like ssh with its keys: a credential others can read is tightened rather than trusted as is.
  if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
  return parsed.data;
}

/** Written to a temporary file (0600 from the start) and renamed, so a crash never leaves half a file. */
export function saveCredential(stateDir: string, cred: StoredCredential): void {
  ensureStateDir(stateDir);
  const file = credentialPath(stateDir);
  const tmp = `${file}.${randomBytes(4).toString("hex")}.tmp`;
  const fd = openSync(tmp, "wx", 0o600);
  try {
    writeSync(fd, `${JSON.stringify(cred, null, 2)}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
}

export interface EnsureCredentialOptions {
  stateDir: string;
  server: string;
  token: string | null;
  /** Trades the registration token for a credential (POST /api/agent/register). */
  register(token: string): Promise<{ hostId: string; hostName: string; credential: string }>;
  log?: (message: string) => void;
}

/** The stored credential for this server, or a new one from registering with the token. */
export async function ensureCredential(opts: EnsureCredentialOptions): Promise<{ credential: StoredCredential; registered: boolean }> {
  const server = normaliseServer(opts.server);
  const existing = loadCredential(opts.stateDir);
  const file = credentialPath(opts.stateDir);
  if (existing) {
    if (normaliseServer(existing.server) !== server) {
      throw new CredentialError(
        `${file} belongs to ${existing.server} (host "${existing.hostName}"), not ${server}: ` +
          `use another --state-dir for this server, or delete that file to move this host`,
      );
    }
    if (opts.token) opts.log?.(`already registered as host "${existing.hostName}": --token is not needed and was not used`);
    return { credential: existing, registered: false };
  }
  if (!opts.token) {
    throw new CredentialError(`not registered yet (no ${file}): pass --token with a registration token from the dashboard`);
  }
  const res = await opts.register(opts.token);
  const credential: StoredCredential = { server, hostId: res.hostId, hostName: res.hostName, credential: res.credential };
  saveCredential(opts.stateDir, credential);
  return { credential, registered: true };
}
