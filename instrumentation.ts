// Next.js start-up hook: what every app instance runs besides its requests (each step is idempotent).
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs" || process.env.NEXT_PHASE === "phase-production-build") return;
  // Before any request: the TCP peer's address for rate limits and the audit log.
  const { installPeerHeader, trustedProxies } = await import("./lib/http/client-address");
  trustedProxies(); // a malformed TRUSTED_PROXIES fails here, at start-up, not on every request
  installPeerHeader();
  const { resolveDatabaseUrlForTools } = await import("./lib/runtime/database-url-file");
  resolveDatabaseUrlForTools(); // an unsupported DATABASE_URL parameter fails here, at start-up
  // Every timer, worker and connection of the instance is listed in lib/instance/instance.ts.
  const { startInstance } = await import("./lib/instance/instance");
  const { markSilentRunsLost } = await import("./lib/server/runs/mark-lost");
  const { expireQueuedRuns } = await import("./lib/server/runs/expire-queued-runs");
  const { pruneThrottles } = await import("./lib/http/auth-throttle");
  const { auditRetentionDays, pruneAudit } = await import("./lib/server/audit/prune-audit");
  const { pruneSessions } = await import("./lib/server/sessions/prune-sessions");
  const { fireDueSchedules } = await import("./lib/server/schedules/fire-due-schedules");
  const { deliverWebhooks } = await import("./lib/server/webhooks/deliver-webhooks");
  const { pruneRawLogs } = await import("./lib/server/runs/prune-raw-logs");
  auditRetentionDays(); // a malformed AUDIT_RETENTION_DAYS fails here, at start-up
  startInstance({
    markSilentRunsLost,
    expireQueuedRuns: () => expireQueuedRuns(),
    pruneThrottles,
    pruneAudit: () => pruneAudit(),
    pruneSessions: () => pruneSessions(),
    deliverWebhooks: () => deliverWebhooks(),
    pruneRawLogs: () => pruneRawLogs(),
    fireDueSchedules: () => fireDueSchedules(),
  });
  // The agent protocol in front of Next.js, for the process's server (scripts/serve.ts) to use.
  const { createGateway } = await import("./lib/gateway/gateway");
  const { publishGateway } = await import("./lib/gateway/bridge");
  publishGateway(createGateway());
}
