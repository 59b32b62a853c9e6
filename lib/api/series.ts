import { z } from "zod";
import { err, defineOperation } from "./operation";
import {
  alertSchema,
  compareWindowsSchema,
  listAlertsQuerySchema,
  listSeriesQuerySchema,
  seriesDetailSchema,
  seriesSummarySchema,
  updateSeriesSchema,
  windowVerdictSchema,
} from "./schemas/series";

const group = "Trends";

/** /api/series and /api/alerts: is this host getting slower, and why? */
export const seriesApi = {
  list: defineOperation({
    method: "get",
    path: "/api/series",
    group,
    summary: "List series (one host, probe and parameters over time) with their latest value and trend, latest first",
    description:
      "A series' trend compares its last N valid runs (succeeded, no flag from the run checks) with the N before: `collecting` until there are 2N, then `regression` or `improvement` when the Hodges–Lehmann estimate lies beyond the threshold and its whole 95 % interval beyond half of it, else `steady`.",
    role: "viewer",
    query: listSeriesQuerySchema,
    responses: { 200: { description: "The series.", json: z.object({ series: z.array(seriesSummarySchema) }) } },
  }),
  get: defineOperation({
    method: "get",
    path: "/api/series/{id}",
    group,
    summary: "One series: its latest runs (at most 500) as points, the host-profile changes between them, its alerts and the current windows' verdict",
    role: "viewer",
    idOf: "series",
    responses: { 200: { description: "The series.", json: seriesDetailSchema } },
  }),
  update: defineOperation({
    method: "patch",
    path: "/api/series/{id}",
    group,
    summary: "Choose the figure a series follows, its window (runs per window) and its threshold (%)",
    role: "operator",
    idOf: "series",
    body: updateSeriesSchema,
    maxBodyBytes: 4 * 1024,
    responses: {
      200: { description: "The series as it now reads.", json: seriesDetailSchema },
      400: err("A field is out of range, or metricKey is not a headline figure of the series' runs (the message lists them)."),
    },
  }),
  compare: defineOperation({
    method: "post",
    path: "/api/series/{id}/compare",
    group,
    summary: "Compare two finish-time ranges of a series like two arms of an experiment, with the host-profile changes between them",
    description: "Window a is the baseline. Each window reads at most its latest 500 runs; only valid runs count.",
    role: "viewer",
    idOf: "series",
    body: compareWindowsSchema,
    maxBodyBytes: 4 * 1024,
    responses: {
      200: { description: "The verdict of b against a.", json: windowVerdictSchema },
      400: err("A date is not a date, or a window's from is after its to."),
    },
  }),
  alerts: defineOperation({
    method: "get",
    path: "/api/alerts",
    group,
    summary: "List regression and improvement alerts, newest first (open ones unless told)",
    role: "viewer",
    query: listAlertsQuerySchema,
    responses: { 200: { description: "The alerts.", json: z.object({ alerts: z.array(alertSchema) }) } },
  }),
  acknowledge: defineOperation({
    method: "post",
    path: "/api/alerts/{id}/acknowledge",
    group,
    summary: "Acknowledge an alert (again: changes nothing)",
    role: "operator",
    idOf: "alert",
    responses: { 200: { description: "The alert.", json: alertSchema } },
  }),
};
