import { z } from "zod";
import { exportFormatQuerySchema, runEventsQuerySchema } from "../../query-schemas";
import { createRunSchema } from "../../../server/runs/create-run";
import { runJsonSchema } from "../../../server/runs/get-run";
import { importRunSchema } from "../../../server/runs/import-run";
import { listRunsQuerySchema } from "../../../server/runs/list-runs";
import { updateRunSchema } from "../../../server/runs/run-tags";
import { telemetrySampleSchema } from "../../../../probes/protocol/schemas";
import { authErrors, err } from "../common";
import type { ApiOperation } from "../types";

const notFound = err("No run with this id.");

const findingSchema = z.object({
  rule: z.string(),
  severity: z.enum(["info", "warning", "critical"]),
  title: z.string(),
  summary: z.string(),
  mechanism: z.string().describe("How the kernel produces what the rule reads."),
  limits: z.string().describe("What the rule cannot see or may get wrong."),
  evidence: z.object({ matched: z.number().int(), total: z.number().int(), samples: z.array(z.object({ label: z.string(), values: z.record(z.string(), z.number()) })) }),
  guide: z.object({ slug: z.string(), section: z.string(), href: z.string() }).nullable().describe("The guide section that explains it; null when no guide covers it."),
  doc: z.object({ title: z.string(), href: z.string() }).nullable().describe("An external document, for rules no guide covers."),
  next: z.object({ title: z.string(), href: z.string() }).nullable().describe("A run that tests what the finding leaves open."),
});

const telemetryDocSchema = z.object({
  intervalSec: z.number(),
  units: z.record(z.string(), z.unknown()),
  samples: z.array(telemetrySampleSchema.omit({ numaFree: true }).extend({ numa: z.record(z.string(), z.number()).optional() })),
});

export const runOperations: ApiOperation[] = [
  {
    method: "get",
    path: "/api/runs",
    group: "Runs",
    summary: "List runs, filtered and paged",
    auth: "viewer",
    query: listRunsQuerySchema,
    responses: {
      200: { description: "One page of runs.", schema: z.object({ runs: z.array(runJsonSchema), total: z.number().int(), page: z.number().int(), pageSize: z.number().int() }) },
      400: err("A filter is invalid (fieldErrors names it)."),
      ...authErrors,
    },
  },
  {
    method: "post",
    path: "/api/runs",
    group: "Runs",
    summary: "Launch a probe on a host (optionally N repeats)",
    description: "params are the probe's own parameters (see the probe catalog); a preset's values can be sent as they are. The host's agent checks them again.",
    auth: "operator",
    body: createRunSchema,
    responses: {
      201: { description: "Queued; ids lists every repeat.", schema: z.object({ id: z.string().uuid(), ids: z.array(z.string().uuid()) }) },
      400: err("Unknown probe, invalid parameters, target outside the agent's directories, tool missing or not enough space."),
      404: err("No such host."),
      ...authErrors,
    },
  },
  {
    method: "post",
    path: "/api/runs/import",
    group: "Runs",
    summary: "Import a tool's output captured elsewhere",
    auth: "operator",
    body: importRunSchema,
    responses: {
      201: { description: "Stored and parsed.", schema: z.object({ id: z.string().uuid(), format: z.string().nullable() }) },
      400: err("Unknown probe or output the parser cannot read."),
      413: err("The output is too large."),
      ...authErrors,
    },
  },
  {
    method: "get",
    path: "/api/runs/{id}",
    group: "Runs",
    summary: "One run with its parameters, profile and result",
    auth: "viewer",
    description: "findings: the guides' diagnosis rules applied to the run's telemetry and, for a probe that samples the machine, to its own samples; each with its evidence and the guide section that explains it.",
    responses: { 200: { description: "The run.", schema: runJsonSchema.extend({ findings: z.array(findingSchema) }) }, 404: notFound, ...authErrors },
  },
  {
    method: "patch",
    path: "/api/runs/{id}",
    group: "Runs",
    summary: "Set a run's tags and/or note",
    auth: "operator",
    authNote: "its launcher or an admin",
    body: updateRunSchema,
    responses: {
      200: { description: "The stored tags and note.", schema: z.object({ id: z.string().uuid(), tags: z.array(z.string()), notes: z.string().nullable() }) },
      400: err("A tag or the note is invalid."),
      404: notFound,
      ...authErrors,
    },
  },
  {
    method: "delete",
    path: "/api/runs/{id}",
    group: "Runs",
    summary: "Delete a finished run and its log",
    auth: "operator",
    authNote: "its launcher or an admin",
    responses: {
      200: { description: "Deleted. Shared comparisons keep their frozen copy.", schema: z.object({ deleted: z.string().uuid() }) },
      404: notFound,
      409: err("The run is queued or running: cancel it first."),
      ...authErrors,
    },
  },
  {
    method: "post",
    path: "/api/runs/{id}/cancel",
    group: "Runs",
    summary: "Cancel a queued or running run",
    auth: "operator",
    responses: {
      200: { description: "The status after the request (a running run ends when its agent has stopped the process).", schema: z.object({ status: z.string() }) },
      404: notFound,
      409: err("The run has already ended."),
      ...authErrors,
    },
  },
  {
    method: "get",
    path: "/api/runs/{id}/log",
    group: "Runs",
    summary: "The raw output as the tool printed it",
    auth: "viewer",
    responses: { 200: { description: "The log.", contentType: "text/plain" }, 404: notFound, ...authErrors },
  },
  {
    method: "get",
    path: "/api/runs/{id}/telemetry",
    group: "Runs",
    summary: "The machine during the run: one telemetry sample a second",
    description:
      "cpu (usr, sys, iowait, idle, steal), the target's block device (rs, ws, rkBs, wkBs, rAwait, wAwait, aquSz, util; null without one, e.g. tmpfs), memory, paging, write-back pacing and free memory per NUMA node (numa, only with more than one node); t is seconds since the probe started. `units` names the unit of every field.",
    auth: "viewer",
    responses: { 200: { description: "The samples in time order.", schema: telemetryDocSchema }, 404: notFound, ...authErrors },
  },
  {
    method: "get",
    path: "/api/runs/{id}/events",
    group: "Runs",
    summary: "Live output and status as Server-Sent Events",
    description:
      "Events: `chunk` (id: its seq; data: {seq, data}) for each piece of output in order; `status` (data: {status, exitCode, errorMessage, startedAt, finishedAt, cancelRequestedAt}) when any of them changes; `telemetry` (data: {samples}) with the telemetry samples not sent yet on this stream (all of them again after a reconnect; key them by t); `end` once the run has ended and all its output was sent, after which the stream closes. Reconnect with Last-Event-ID (or ?after=) to resume without repeats.",
    auth: "viewer",
    query: runEventsQuerySchema,
    responses: { 200: { description: "An event stream that ends after the `end` event.", contentType: "text/event-stream" }, 404: notFound, ...authErrors },
  },
  {
    method: "get",
    path: "/api/runs/{id}/export",
    group: "Runs",
    summary: "One run as CSV (a row per measurement) or JSON",
    auth: "viewer",
    query: exportFormatQuerySchema,
    responses: {
      200: { description: "JSON: the run with its label (format=json); CSV with display units (format=csv).", schema: runJsonSchema.extend({ label: z.string() }) },
      400: err("format is neither csv nor json."),
      404: notFound,
      ...authErrors,
    },
  },
];
