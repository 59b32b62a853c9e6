import { z } from "zod";
import { exportFormatQuerySchema, runEventsQuerySchema } from "../http/query-schemas";
import { err, defineOperation } from "./operation";
import { importTooLarge, MAX_IMPORT_BYTES, MAX_IMPORT_WORDS } from "../../probes/core/limits";
import { createRunSchema, findingSchema, importFilePreviewSchema, importFileSchema, importPreviewJsonSchema, importPreviewSchema, importRunSchema, listRunsQuerySchema, runJsonSchema, telemetryDocSchema } from "./schemas/runs";
import { updateRunSchema } from "./schemas/tags";

const group = "Runs";
// One limit, MAX_IMPORT_BYTES of output. The JSON escaping of control-heavy output can double
// its size, so a JSON body may be twice that; the output inside is then counted on its own. A
// form's boundaries and other fields fit in the 64 KiB beside the file.
/** What an import answers, whether the output came as JSON or as a file. */
const importedJsonSchema = z.object({ id: z.string().uuid(), ids: z.array(z.string().uuid()), format: z.string().nullable(), runs: z.number().int().describe("How many runs the output held.") });
const IMPORT_BODY_BYTES = 2 * MAX_IMPORT_BYTES + 64 * 1024;
const IMPORT_FILE_BODY_BYTES = MAX_IMPORT_BYTES + 64 * 1024;
const TOO_LARGE = `The output (the \`output\` field, or the \`file\`) is over ${MAX_IMPORT_WORDS}, counted in bytes of UTF-8; the message names the field and the limit.`;
const LIMIT_NOTE = `The output may be at most ${MAX_IMPORT_WORDS}, counted in bytes of UTF-8 (an accented letter is 2 bytes), whether sent as JSON here or as a file to the /file form of this operation.`;

/** /api/runs: launch, import, read, annotate, cancel, delete, follow and export runs. */
export const runsApi = {
  list: defineOperation({
    method: "get",
    path: "/api/runs",
    group,
    summary: "List runs, filtered and paged",
    role: "viewer",
    query: listRunsQuerySchema,
    responses: {
      200: { description: "One page of runs.", json: z.object({ runs: z.array(runJsonSchema), total: z.number().int(), page: z.number().int(), pageSize: z.number().int() }) },
    },
  }),
  create: defineOperation({
    method: "post",
    path: "/api/runs",
    group,
    summary: "Launch a probe on a host (optionally N repeats)",
    description: "params are the probe's own parameters (see the probe catalog); a preset's values can be sent as they are. The host's agent checks them again.",
    role: "operator",
    body: createRunSchema,
    maxBodyBytes: 64 * 1024,
    responses: {
      201: { description: "Queued; ids lists every repeat.", json: z.object({ id: z.string().uuid(), ids: z.array(z.string().uuid()) }) },
      400: err("Unknown probe, invalid parameters, target outside the agent's directories, tool missing or not enough space."),
      404: err("No such host."),
    },
  }),
  import: defineOperation({
    method: "post",
    path: "/api/runs/import",
    group,
    summary: "Import a tool's output captured elsewhere",
    description:
      `The output may be a paste: shell prompts, command lines, \`time\` reports, colour, mail quoting and Windows line ends are taken off. When it holds several runs, \`runs\` says whether they become runs of their own or one repeated series. ${LIMIT_NOTE}`,
    role: "operator",
    body: importRunSchema,
    maxBodyBytes: IMPORT_BODY_BYTES,
    tooLargeMessage: importTooLarge("output"),
    tooLargeFields: ["output"],
    responses: {
      201: {
        description: "Stored and parsed. id: the (first) run; ids: every run stored, one per run of the paste when runs is \"separate\".",
        json: importedJsonSchema,
      },
      400: err("Unknown probe, output the parser cannot read, or several runs without a `runs` choice."),
      413: err(`${TOO_LARGE} Or more than the parser's caps.`),
      422: err("The parse ran out of time or memory."),
    },
  }),
  importFile: defineOperation({
    method: "post",
    path: "/api/runs/import/file",
    group,
    summary: "Import a tool's output uploaded as a file",
    description: `The same import as POST /api/runs/import, with the output sent as the \`file\` field of a multipart/form-data form and the other fields beside it (e.g. \`curl -F probe=sar -F hostLabel=db-07 -F file=@sar.txt\`). ${LIMIT_NOTE} The size is checked on Content-Length and while the body arrives, before anything is read.`,
    role: "operator",
    body: importFileSchema,
    bodyMedia: "multipart/form-data",
    maxBodyBytes: IMPORT_FILE_BODY_BYTES,
    tooLargeMessage: importTooLarge("file"),
    tooLargeFields: ["file"],
    responses: {
      201: {
        description: "Stored and parsed, as POST /api/runs/import answers.",
        json: importedJsonSchema,
      },
      400: err("Unknown probe, an empty file, output the parser cannot read, or several runs without a `runs` choice."),
      413: err(`${TOO_LARGE} Or more than the parser's caps.`),
      422: err("The parse ran out of time or memory."),
    },
  }),
  importFilePreview: defineOperation({
    method: "post",
    path: "/api/runs/import/file/preview",
    group,
    summary: "Read an uploaded file as an import would, without storing it",
    description: `POST /api/runs/import/preview for a file sent as the \`file\` field of a multipart/form-data form. ${LIMIT_NOTE}`,
    role: "operator",
    body: importFilePreviewSchema,
    bodyMedia: "multipart/form-data",
    maxBodyBytes: IMPORT_FILE_BODY_BYTES,
    tooLargeMessage: importTooLarge("file"),
    tooLargeFields: ["file"],
    responses: {
      200: { description: "What the import would read.", json: importPreviewJsonSchema },
      400: err("Unknown probe, an empty file or output the parser cannot read."),
      413: err(`${TOO_LARGE} Or more than the parser's caps.`),
      422: err("The parse ran out of time or memory."),
    },
  }),
  importPreview: defineOperation({
    method: "post",
    path: "/api/runs/import/preview",
    group,
    summary: "Read output as an import would, without storing it",
    description: `Says which form was read and how many runs the output holds (with each run's command line), so the import form can offer separate runs or one repeated series. ${LIMIT_NOTE}`,
    role: "operator",
    body: importPreviewSchema,
    maxBodyBytes: IMPORT_BODY_BYTES,
    tooLargeMessage: importTooLarge("output"),
    tooLargeFields: ["output"],
    responses: {
      200: { description: "What the import would read.", json: importPreviewJsonSchema },
      400: err("Unknown probe or output the parser cannot read."),
      413: err(`${TOO_LARGE} Or more than the parser's caps.`),
      422: err("The parse ran out of time or memory."),
    },
  }),
  get: defineOperation({
    method: "get",
    path: "/api/runs/{id}",
    group,
    summary: "One run with its parameters, profile and result",
    description:
      "findings: the guides' diagnosis rules applied to the run's telemetry and, for a probe that samples the machine, to its own samples; each with its evidence and the guide section that explains it.",
    role: "viewer",
    idOf: "run",
    responses: { 200: { description: "The run.", json: runJsonSchema.extend({ findings: z.array(findingSchema) }) } },
  }),
  update: defineOperation({
    method: "patch",
    path: "/api/runs/{id}",
    group,
    summary: "Set a run's tags and/or note",
    role: "operator",
    authNote: "its launcher or an admin",
    idOf: "run",
    body: updateRunSchema,
    maxBodyBytes: 16 * 1024,
    responses: {
      200: { description: "The stored tags and note.", json: z.object({ id: z.string().uuid(), tags: z.array(z.string()), notes: z.string().nullable() }) },
      400: err("A tag or the note is invalid."),
    },
  }),
  delete: defineOperation({
    method: "delete",
    path: "/api/runs/{id}",
    group,
    summary: "Delete a finished run and its log",
    role: "operator",
    authNote: "its launcher or an admin",
    idOf: "run",
    responses: {
      200: { description: "Deleted. Shared comparisons keep their frozen copy.", json: z.object({ deleted: z.string().uuid() }) },
      409: err("The run is queued or running: cancel it first."),
    },
  }),
  cancel: defineOperation({
    method: "post",
    path: "/api/runs/{id}/cancel",
    group,
    summary: "Cancel a queued or running run",
    role: "operator",
    idOf: "run",
    responses: {
      200: { description: "The status after the request (a running run ends when its agent has stopped the process).", json: z.object({ status: z.string() }) },
      409: err("The run has already ended."),
    },
  }),
  log: defineOperation({
    method: "get",
    path: "/api/runs/{id}/log",
    group,
    summary: "The raw output as the tool printed it",
    description:
      "When the retention setting (/api/admin/settings/retention) has dropped the run's raw output, the answer is one sentence saying so and when, with the header `X-Probebook-Log-Pruned-At`; the run's result, telemetry and checks are kept.",
    role: "viewer",
    idOf: "run",
    responses: { 200: { description: "The log, or the retention's sentence.", text: ["text/plain"] } },
  }),
  telemetry: defineOperation({
    method: "get",
    path: "/api/runs/{id}/telemetry",
    group,
    summary: "The machine during the run: one telemetry sample a second",
    description:
      "cpu (usr, sys, iowait, idle, steal), the target's block device (rs, ws, rkBs, wkBs, rAwait, wAwait, aquSz, util; null without one, e.g. tmpfs), memory, paging, write-back pacing and free memory per NUMA node (numa, only with more than one node); t is seconds since the probe started. `units` names the unit of every field.",
    role: "viewer",
    idOf: "run",
    responses: { 200: { description: "The samples in time order.", json: telemetryDocSchema } },
  }),
  events: defineOperation({
    method: "get",
    path: "/api/runs/{id}/events",
    group,
    summary: "Live output and status as Server-Sent Events",
    description:
      "Events: `chunk` (id: its seq; data: {seq, data}) for each piece of output in order; `status` (data: {status, exitCode, errorMessage, startedAt, finishedAt, cancelRequestedAt}) when any of them changes; `telemetry` (data: {samples}) with the telemetry samples not sent yet on this stream (all of them again after a reconnect; key them by t); `end` once the run has ended and all its output was sent, after which the stream closes. Reconnect with Last-Event-ID (or ?after=) to resume without repeats.",
    role: "viewer",
    idOf: "run",
    query: runEventsQuerySchema,
    responses: { 200: { description: "An event stream that ends after the `end` event.", text: ["text/event-stream"] } },
  }),
  export: defineOperation({
    method: "get",
    path: "/api/runs/{id}/export",
    group,
    summary: "One run as CSV (a row per measurement) or JSON",
    role: "viewer",
    idOf: "run",
    query: exportFormatQuerySchema,
    responses: {
      200: {
        description: "format=json: the run with its label and telemetry; format=csv: one row per measurement, then one per check and telemetry field and second, in display units.",
        json: runJsonSchema.extend({ label: z.string(), telemetry: telemetryDocSchema }),
        text: ["text/csv"],
      },
      400: err("format is neither csv nor json."),
    },
  }),
};
