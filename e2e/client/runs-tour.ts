// Typical use of the API from TypeScript with types openapi-typescript generates from
// /api/openapi.json (api-types.ts, made by generate-types.ts) and the openapi-fetch client:
// list runs, launch one, read it, export it as CSV and JSON, cancel it. No casts: if the document
// stopped describing what the server answers, this would not compile (npm run typecheck) or the
// e2e spec that runs it (e2e/client/runs-tour.spec.ts) would fail.
import createClient from "openapi-fetch";
import type { paths } from "./api-types";

export interface Tour {
  listed: number;
  launched: string;
  status: string;
  findings: number;
  csvHeader: string;
  label: string;
  cancelled: string;
}

/** Fails with the server's own words when a call is refused. */
function need<T>(r: { data?: T; error?: { error: string } }, what: string): T {
  if (r.data === undefined) throw new Error(`${what}: ${r.error?.error ?? "no body"}`);
  return r.data;
}

export async function runsTour(opts: { baseUrl: string; token: string; hostId: string; target: string }): Promise<Tour> {
  const api = createClient<paths>({ baseUrl: opts.baseUrl, headers: { authorization: `Bearer ${opts.token}` } });

  const page = need(await api.GET("/api/runs", { params: { query: { hostId: opts.hostId, pageSize: 10 } } }), "list runs");
  const launched = need(
    await api.POST("/api/runs", { body: { hostId: opts.hostId, probe: "dd", params: { target: opts.target, sizeMiB: 4 }, repeats: 1 } }),
    "launch a run",
  );
  const path = { id: launched.id };
  const run = need(await api.GET("/api/runs/{id}", { params: { path } }), "read the run");
  const csv = need(await api.GET("/api/runs/{id}/export", { params: { path, query: { format: "csv" } }, parseAs: "text" }), "export as CSV");
  const json = need(await api.GET("/api/runs/{id}/export", { params: { path, query: { format: "json" } } }), "export as JSON");
  // The export documents CSV beside JSON for the same status; format=json answers the object.
  if (typeof json === "string") throw new Error("export as JSON answered text");
  const cancelled = need(await api.POST("/api/runs/{id}/cancel", { params: { path } }), "cancel the run");
  return {
    listed: page.total,
    launched: launched.id,
    status: run.status,
    findings: run.findings.length,
    csvHeader: csv.split("\n")[0] ?? "",
    label: json.label,
    cancelled: cancelled.status,
  };
}
