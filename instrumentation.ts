// Next.js start-up hook: background upkeep that every app instance runs (each step is idempotent).
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs" || process.env.NEXT_PHASE === "phase-production-build") return;
  // Before any request: the TCP peer's address for rate limits and the audit log.
  const { installPeerHeader, trustedProxies } = await import("./lib/http/client-address");
  trustedProxies(); // a malformed TRUSTED_PROXIES fails here, at start-up, not on every request
  installPeerHeader();
  const { markSilentRunsLost } = await import("./lib/server/runs/mark-lost");
  const { pruneThrottles } = await import("./lib/http/auth-throttle");
  const pruner = setInterval(() => {
    pruneThrottles().catch(() => undefined);
  }, 10 * 60_000);
  pruner.unref();
  const timer = setInterval(() => {
    markSilentRunsLost().catch(() => undefined);
  }, 10_000);
  timer.unref();
}
