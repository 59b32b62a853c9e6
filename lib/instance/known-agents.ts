import { pgPool } from "../pg-pool";

/**
 * Credential hash → host id, per instance. A long-poll must register its waiter under the host id
 * before its first claim statement (job-waiters.ts), and that statement checks the credential
 * again (claim-job.ts): so the lookup is needed once per agent, not once per poll, and a revoked
 * credential is refused at its next claim whatever this map holds.
 */
const MAX_ENTRIES = 100_000;

export class KnownAgents {
  private readonly byHash = new Map<string, string>();

  /** The host of this credential; null when no host has it (the caller answers 401). */
  async hostIdFor(credentialHash: string): Promise<string | null> {
    const known = this.byHash.get(credentialHash);
    if (known) return known;
    const { rows } = await pgPool().query<{ id: string }>("SELECT id::text AS id FROM hosts WHERE agent_credential_hash = $1", [credentialHash]);
    const id = rows[0]?.id;
    if (!id) return null;
    // Entries are 100 bytes; past the bound (a fleet far larger than one instance serves) start over.
    if (this.byHash.size >= MAX_ENTRIES) this.byHash.clear();
    this.byHash.set(credentialHash, id);
    return id;
  }

  forget(credentialHash: string): void {
    this.byHash.delete(credentialHash);
  }
}

