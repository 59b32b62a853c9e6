// Next.js start-up hook: background upkeep that every app instance runs (each step is idempotent).
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs" || process.env.NEXT_PHASE === "phase-production-build") return;
  const { markSilentRunsLost } = await import("./lib/server/runs/mark-lost");
  const timer = setInterval(() => {
    markSilentRunsLost().catch(() => undefined);
  }, 10_000);
  timer.unref();
}
