import { z } from "zod";
import { createExperimentSchema, experimentResponseSchema, listExperimentsQuerySchema } from "../../../server/experiments/schemas";
import { authErrors, err, uuid } from "../common";
import type { ApiOperation } from "../types";

const notFound = err("No experiment with this id.");

export const experimentOperations: ApiOperation[] = [
  {
    method: "get",
    path: "/api/experiments",
    group: "Experiments",
    summary: "List experiments, newest first",
    auth: "viewer",
    query: listExperimentsQuerySchema,
    responses: {
      200: { description: "The experiments.", schema: z.object({ experiments: z.array(z.unknown()) }) },
      400: err("A filter is invalid (fieldErrors names it)."),
      ...authErrors,
    },
  },
  {
    method: "post",
    path: "/api/experiments",
    group: "Experiments",
    summary: "Start an experiment: a probe, two or more arms (lab file systems, tunables or targets) and a repeat policy (stop on precision or CV, time budget, warm-up)",
    description:
      "Arms are checked against what the host's agent reported (--lab, --allow-tunable); the agent checks them again before changing anything. Nothing is queued when an arm is refused.",
    auth: "operator",
    body: createExperimentSchema,
    responses: {
      201: { description: "Created; its first round is queued.", schema: z.object({ id: uuid }) },
      400: err("Invalid arms, tunables the agent does not allow, lab arms without a lab (fieldErrors names them)."),
      404: err("No such host."),
      ...authErrors,
    },
  },
  {
    method: "get",
    path: "/api/experiments/{id}",
    group: "Experiments",
    summary: "One experiment: status, arms with their valid and left-out runs, median and CV, the verdict, its precision, whether the host is back as it was",
    description:
      "Verdict lines come from valid runs only (succeeded, no flag from the run checks, not a warm-up). A line is `collecting` (no ratio) until every arm has 3 valid runs, then `decided` or `no-difference-detected` with its ratio, exact interval and level, `halfWidthPct` and, for no difference, `runsNeeded`. A FAILED or CANCELLED experiment has no verdict lines.",
    auth: "viewer",
    responses: { 200: { description: "The experiment.", schema: experimentResponseSchema }, 404: notFound, ...authErrors },
  },
  {
    method: "post",
    path: "/api/experiments/{id}/cancel",
    group: "Experiments",
    summary: "Cancel: queued runs are dropped, the running one is stopped; the agent restores what the arm changed",
    auth: "operator",
    responses: {
      200: { description: "What the cancel did.", schema: z.object({ status: z.string(), runningRunId: uuid.nullable() }) },
      404: notFound,
      409: err("The experiment has already ended."),
      ...authErrors,
    },
  },
  {
    method: "get",
    path: "/api/experiments/{id}/export",
    group: "Experiments",
    summary: "Export the experiment with its runs and verdict (?format=csv for CSV)",
    auth: "viewer",
    query: z.object({ format: z.enum(["json", "csv"]).optional() }),
    responses: {
      200: { description: "JSON document, or CSV with ?format=csv.", schema: z.unknown() },
      404: notFound,
      ...authErrors,
    },
  },
  {
    method: "post",
    path: "/api/experiments/{id}/share",
    group: "Experiments",
    summary: "Freeze the experiment into a read-only share link",
    auth: "operator",
    responses: {
      201: { description: "The share's slug and path.", schema: z.object({ slug: z.string(), path: z.string() }) },
      404: notFound,
      ...authErrors,
    },
  },
];
