import { serviceApi } from "@/lib/api/service";
import { AppError } from "@/lib/http/app-error";
import { bearerMatches } from "@/lib/http/bearer";
import { metricsTokenFrom } from "@/lib/runtime/ops-settings";
import { readMetrics } from "@/lib/server/metrics/read-metrics";
import { handle } from "../api/handle";

export const dynamic = "force-dynamic";

/** Prometheus's scrape: the process's metrics, behind METRICS_TOKEN when it is set. */
export const GET = handle(serviceApi.metrics, async ({ req }) => {
  const token = metricsTokenFrom(process.env);
  if (token && !bearerMatches(req.headers.get("authorization"), token)) {
    throw new AppError("UNAUTHORIZED", "/metrics needs `Authorization: Bearer <METRICS_TOKEN>` (METRICS_TOKEN is set on this server).");
  }
  const { text, contentType } = await readMetrics();
  return { status: 200, type: "text/plain", text, headers: { "content-type": contentType, "cache-control": "no-store" } };
});
