import { Prisma } from "@prisma/client";
import { generateSecret, hashSecret } from "../../auth/secret-token";
import { db } from "../../db";
import type { Actor } from "../../auth/actor";
import { assertOwnerOrAdmin } from "../../auth/ownership";
import { AppError } from "../../http/app-error";
import { notifyHost, notifyRun } from "../../instance/notify";
import { advanceExperimentSafely } from "../experiments/advance-safely";

export const REGISTRATION_TTL_MS = 24 * 60 * 60 * 1000;

/** Per-user limits; PROBEBOOK_MAX_HOSTS_PER_USER and PROBEBOOK_MAX_PENDING_REGISTRATIONS override them. */
export function hostLimits(): { hosts: number; pending: number } {
  const num = (v: string | undefined, d: number) => (v && /^\d+$/.test(v) && Number(v) > 0 ? Number(v) : d);
  return { hosts: num(process.env.PROBEBOOK_MAX_HOSTS_PER_USER, 200), pending: num(process.env.PROBEBOOK_MAX_PENDING_REGISTRATIONS, 10) };
}

/** The 429 that names the limit a user hit (read after a conditional write was refused). */
async function limitError(userId: string): Promise<AppError> {
  const limits = hostLimits();
  const hosts = await db().host.count({ where: { createdById: userId } });
  if (hosts >= limits.hosts) {
    return new AppError("RATE_LIMITED", `You have ${hosts} hosts, the most one user may register (${limits.hosts}): delete unused hosts or ask an administrator to raise PROBEBOOK_MAX_HOSTS_PER_USER.`);
  }
  return new AppError("RATE_LIMITED", `You have registration tokens not used yet up to the limit of ${limits.pending}: register those agents or wait until the tokens expire (24 h).`);
}

/**
 * Counting and writing happen in one transaction after a per-user advisory lock, as two
 * statements: under READ COMMITTED the second statement's snapshot is taken after the lock is
 * held, so it sees every host a concurrent request committed and a burst cannot all pass the
 * count. (A batch, not an interactive transaction: no client-side timeout to trip on a busy server.)
 */
const lockUser = (userId: string) => db().$queryRaw`SELECT 1 AS locked FROM (SELECT pg_advisory_xact_lock(hashtext(${`hosts:${userId}`}))) AS l`;

function pendingCount(userId: string, now: Date) {
  return Prisma.sql`(SELECT count(*) FROM hosts WHERE created_by_id = ${userId}::uuid AND registration_token_hash IS NOT NULL AND registration_expires_at > ${now}::timestamp)`;
}

type HostRow = { id: string; name: string; registration_expires_at: Date | null };
const toHost = (r: HostRow) => ({ id: r.id, name: r.name, registrationExpiresAt: r.registration_expires_at });

/** Creates a host and its one-time registration token (shown once, valid 24 h, stored hashed). */
export async function createHost(input: { name: string; createdById?: string | null }) {
  const token = generateSecret("pbr");
  const data = { name: input.name, registrationTokenHash: hashSecret(token), registrationExpiresAt: new Date(Date.now() + REGISTRATION_TTL_MS) };
  const userId = input.createdById;
  if (!userId) {
    const host = await db().host.create({ data, select: { id: true, name: true, registrationExpiresAt: true } });
    return { ...host, registrationToken: token };
  }
  const limits = hostLimits();
  const now = new Date();
  const [, rows] = await db().$transaction([
    lockUser(userId),
    db().$queryRaw<HostRow[]>`
      INSERT INTO hosts (id, name, created_by_id, registration_token_hash, registration_expires_at, created_at, updated_at)
      SELECT gen_random_uuid(), ${data.name}, ${userId}::uuid, ${data.registrationTokenHash}, ${data.registrationExpiresAt}::timestamp, ${now}::timestamp, ${now}::timestamp
      WHERE (SELECT count(*) FROM hosts WHERE created_by_id = ${userId}::uuid) < ${limits.hosts}
        AND ${pendingCount(userId, now)} < ${limits.pending}
      RETURNING id::text AS id, name, registration_expires_at`,
  ]);
  const row = rows[0];
  if (!row) throw await limitError(userId);
  return { ...toHost(row), registrationToken: token };
}

/** Why runs in flight end when their host's credential is revoked by a re-registration. */
export const CREDENTIAL_REVOKED_MESSAGE = "The host's agent credential was revoked (re-registered) before this run finished.";

/**
 * Revokes the agent credential and issues a fresh registration token ("revoke and re-register").
 * It hands the host's agent, and every job launched there, to whoever runs the token, so it
 * takes the right to delete the host: whoever added it, or an admin. `"local-agent"` is the
 * server itself re-registering its own local agent at start-up (lib/runtime/local-agent.ts).
 *
 * One statement: the host row (locked) gives the credential being revoked, runs in flight end
 * as CANCELLED (the agent is refused from its next request, so they cannot end otherwise), and
 * experiment runs among them keep that credential, with which their agent may still deliver the
 * setup report saying what it put back (lib/server/agent/accept-final-report.ts).
 */
export async function reissueRegistration({ hostId, actor }: { hostId: string; actor: Actor | "local-agent" }) {
  const host = await db().host.findUnique({ where: { id: hostId }, select: { createdById: true } });
  if (!host) throw new AppError("NOT_FOUND", `No host ${hostId}.`);
  if (actor !== "local-agent") assertOwnerOrAdmin(actor, host.createdById, "this host");
  const byUserId = actor === "local-agent" ? null : actor.userId;
  const token = generateSecret("pbr");
  const expiresAt = new Date(Date.now() + REGISTRATION_TTL_MS);
  const now = new Date();
  const withinLimit = byUserId ? Prisma.sql`${pendingCount(byUserId, now)} < ${hostLimits().pending}` : Prisma.sql`true`;
  const [, rows] = await db().$transaction([
    byUserId ? lockUser(byUserId) : db().$queryRaw`SELECT 1 AS locked`,
    db().$queryRaw<(HostRow & { runs_ended: string[]; experiments: string[] })[]>`
      WITH h AS (
        SELECT id, agent_credential_hash FROM hosts WHERE id = ${hostId}::uuid AND ${withinLimit} FOR UPDATE
      ), ended AS (
        UPDATE probe_runs p SET status = 'CANCELLED', cancel_requested_at = ${now}::timestamp, finished_at = ${now}::timestamp,
          updated_at = ${now}::timestamp, error_message = ${CREDENTIAL_REVOKED_MESSAGE},
          final_report_credential_hash = CASE WHEN p.experiment_id IS NOT NULL THEN h.agent_credential_hash END
        FROM h WHERE p.host_id = h.id AND p.status = 'RUNNING'
        RETURNING p.id::text AS id, p.experiment_id::text AS experiment_id
      ), updated AS (
        UPDATE hosts SET agent_credential_hash = NULL, registration_token_hash = ${hashSecret(token)},
          registration_expires_at = ${expiresAt}::timestamp, updated_at = ${now}::timestamp
        FROM h WHERE hosts.id = h.id
        RETURNING hosts.id::text AS id, hosts.name, hosts.registration_expires_at
      )
      SELECT updated.*, ARRAY(SELECT id FROM ended) AS runs_ended,
        ARRAY(SELECT DISTINCT experiment_id FROM ended WHERE experiment_id IS NOT NULL) AS experiments FROM updated`,
  ]);
  const row = rows[0];
  if (!row) {
    if (!(await db().host.findUnique({ where: { id: hostId }, select: { id: true } }))) throw new AppError("NOT_FOUND", `No host ${hostId}.`);
    throw await limitError(byUserId!);
  }
  // Its long-polling agent claims again at once and is refused then, not at the end of its poll.
  await notifyHost(hostId);
  for (const runId of row.runs_ended) await notifyRun(runId, { kind: "status" });
  for (const experimentId of row.experiments) await advanceExperimentSafely(experimentId);
  return { ...toHost(row), registrationToken: token, runsEnded: row.runs_ended.length };
}
