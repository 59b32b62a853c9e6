import { z } from "zod";
import { createComparisonSchema, shareIncludeSchema } from "./schemas/comparisons";
import { exportFormatQuerySchema } from "../http/query-schemas";
import { err, defineOperation } from "./operation";
import { createExperimentSchema, experimentListItemSchema, experimentResponseSchema, listExperimentsQuerySchema } from "./schemas/experiments";

const group = "Experiments";
const uuid = z.string().uuid();

/** /api/experiments: arms compared over interleaved rounds, with a verdict. */
export const experimentsApi = {
  list: defineOperation({
    method: "get",
    path: "/api/experiments",
    group,
    summary: "List experiments, newest first",
    role: "viewer",
    query: listExperimentsQuerySchema,
    responses: { 200: { description: "The experiments.", json: z.object({ experiments: z.array(experimentListItemSchema) }) } },
  }),
  create: defineOperation({
    method: "post",
    path: "/api/experiments",
    group,
    summary: "Start an experiment: a probe, two or more arms (lab file systems, tunables or targets) and a repeat policy (stop on precision or CV, time budget, warm-up)",
    description:
      "Arms are checked against what the host's agent reported (--lab, --allow-tunable); the agent checks them again before changing anything. Nothing is queued when an arm is refused. " +
      'With `kind: "sweep"` (probe fio, no arms) it is a sweep: `params` is the workload (its `runtimeSec` each point\'s time limit) and `sweep: { iodepths, numjobs, blockSizesKiB?, steadyState? }` the grid (at most 64 points), each point one fio run, all queued at once in an interleaved order.',
    role: "operator",
    body: createExperimentSchema,
    maxBodyBytes: 64 * 1024,
    responses: {
      201: { description: "Created; its first round (a sweep: every point) is queued.", json: z.object({ id: uuid }) },
      400: err("Invalid arms, tunables the agent does not allow, lab arms without a lab, a sweep's grid or workload (fieldErrors names them)."),
      404: err("No such host."),
    },
  }),
  get: defineOperation({
    method: "get",
    path: "/api/experiments/{id}",
    group,
    summary: "One experiment: status, arms with their valid and left-out runs, median and CV, the verdict, its precision, whether the host is back as it was",
    description:
      "Verdict lines come from valid runs only (succeeded, no flag from the run checks, not a warm-up). A line is `collecting` (no ratio) until every arm has 3 valid runs, then `decided` or `no-difference-detected` with its ratio, exact interval and level, `halfWidthPct` and, for no difference, `runsNeeded`. A FAILED or CANCELLED experiment has no verdict lines. A sweep (kind \"sweep\") also has `sweep`: every grid point's IOPS, bandwidth, p50/p99/p99.9 latency and steady state, and the saturation point.",
    role: "viewer",
    idOf: "experiment",
    responses: { 200: { description: "The experiment.", json: experimentResponseSchema } },
  }),
  cancel: defineOperation({
    method: "post",
    path: "/api/experiments/{id}/cancel",
    group,
    summary: "Cancel: queued runs are dropped, the running one is stopped; the agent restores what the arm changed",
    role: "operator",
    idOf: "experiment",
    responses: {
      200: { description: "What the cancel did.", json: z.object({ status: z.string(), runningRunId: uuid.nullable() }) },
      409: err("The experiment has already ended."),
    },
  }),
  export: defineOperation({
    method: "get",
    path: "/api/experiments/{id}/export",
    group,
    summary: "Export the experiment with its runs and verdict (?format=csv for CSV); a sweep as its points (CSV: one row per point)",
    role: "viewer",
    idOf: "experiment",
    query: exportFormatQuerySchema,
    responses: { 200: { description: "JSON document, or CSV with ?format=csv.", json: z.record(z.string(), z.unknown()), text: ["text/csv"] } },
  }),
  share: defineOperation({
    method: "post",
    path: "/api/experiments/{id}/share",
    group,
    summary: "Freeze the experiment into a read-only share link",
    role: "operator",
    idOf: "experiment",
    // An empty body keeps the share's defaults: no host names, no paths, no hardware models.
    body: z.object({ include: shareIncludeSchema, expiresInDays: createComparisonSchema.shape.expiresInDays }),
    responses: { 201: { description: "The share's slug and path.", json: z.object({ slug: z.string(), path: z.string() }) } },
  }),
};
