import type { FinishRequest, SetupReport } from "../../../probes/protocol/schemas";
import { db } from "../../db";
import { notifyRun } from "../../instance/notify";
import { pgPool } from "../../pg-pool";
import { advanceExperimentSafely } from "../experiments/advance-safely";
import { assertSetupReportFits } from "../runs/check-setup-report";
import { unknownCredential } from "./unknown-credential";

/**
 * The one thing a revoked agent credential may still do: deliver, once, the setup report of an
 * experiment run it was running when it was revoked (its host deleted or re-registered). That
 * agent stops the probe and puts the host back before it stops; without the report the server
 * could not say what the arm changed or whether it was restored. The allowance is narrow on
 * purpose, since a credential is revoked because the host may be compromised:
 * - only runs that this credential had claimed and that were running at the revocation (the
 *   hash is kept on those rows then, see delete-host.ts and create-host.ts), once each;
 * - only the report, checked against the setup the run's job carried (check-setup-report.ts);
 *   the run keeps the status it was given (CANCELLED) and nothing else of the finish is read;
 * - no chunks, claims, heartbeats or history: the run already ended, so its output is not a
 *   measurement any more, and accepting it would let a revoked credential keep writing logs.
 * Anything else answers the usual 401.
 */
export async function acceptFinalReport({ runId, credentialHash, finish }: { runId: string; credentialHash: string; finish: FinishRequest }): Promise<{ status: string }> {
  if (!finish.setup) throw unknownCredential();
  const run = await db().probeRun.findFirst({
    where: { id: runId, finalReportCredentialHash: credentialHash },
    select: { experimentId: true, armIndex: true },
  });
  if (!run) throw unknownCredential();
  await assertSetupReportFits({ run, report: finish.setup });
  const setup: SetupReport = finish.setup;
  const { rows } = await pgPool().query<{ status: string }>(
    `UPDATE probe_runs SET setup = $3::jsonb, final_report_credential_hash = NULL, updated_at = now()
     WHERE id = $1::uuid AND final_report_credential_hash = $2
     RETURNING status::text AS status`,
    [runId, credentialHash, JSON.stringify(setup)],
  );
  // A second report raced this one and won: the credential is spent either way.
  if (!rows[0]) throw unknownCredential();
  await notifyRun(runId, { kind: "status" });
  if (run.experimentId) await advanceExperimentSafely(run.experimentId);
  return { status: rows[0].status };
}
