import { z } from "zod";
import { comparisonPreviewQuerySchema } from "../http/query-schemas";
import { err, defineOperation } from "./operation";
import { comparisonSchema, createComparisonSchema } from "./schemas/comparisons";

const group = "Comparisons";
const gone = err("Unknown, deleted (404) or withdrawn / expired (410).");

/** /api/comparisons: runs side by side, exported or frozen behind a public link. */
export const comparisonsApi = {
  create: defineOperation({
    method: "post",
    path: "/api/comparisons",
    group,
    summary: "Freeze runs into a public share link",
    role: "operator",
    body: createComparisonSchema,
    maxBodyBytes: 64 * 1024,
    responses: {
      201: { description: "The share link.", json: z.object({ slug: z.string(), url: z.string() }) },
      400: err("Invalid run ids or options."),
      404: err("A run does not exist."),
    },
  }),
  preview: defineOperation({
    method: "get",
    path: "/api/comparisons/preview",
    group,
    summary: "Export runs side by side without sharing them",
    role: "viewer",
    query: comparisonPreviewQuerySchema,
    responses: {
      200: { description: "format=json: the comparison; format=csv: one row per measurement.", json: comparisonSchema, text: ["text/csv"] },
      400: err("Bad run ids or format."),
      404: err("A run does not exist."),
    },
  }),
  get: defineOperation({
    method: "get",
    path: "/api/comparisons/{slug}",
    group,
    summary: "A shared comparison as JSON",
    role: "public",
    responses: { 200: { description: "The frozen comparison.", json: comparisonSchema }, 404: gone, 410: gone },
  }),
  delete: defineOperation({
    method: "delete",
    path: "/api/comparisons/{slug}",
    group,
    summary: "Delete a shared comparison and its snapshot",
    description: "Afterwards the link answers 404. The runs are untouched.",
    role: "operator",
    authNote: "whoever shared it or an admin",
    responses: { 200: { description: "Deleted.", json: z.object({ deleted: z.string() }) }, 404: err("No such comparison.") },
  }),
  csv: defineOperation({
    method: "get",
    path: "/api/comparisons/{slug}/csv",
    group,
    summary: "A shared comparison as CSV, one row per measurement",
    role: "public",
    responses: { 200: { description: "CSV in display units.", text: ["text/csv"] }, 404: gone, 410: gone },
  }),
  revoke: defineOperation({
    method: "post",
    path: "/api/comparisons/{slug}/revoke",
    group,
    summary: "Withdraw a share link (it then answers 410 Gone)",
    role: "viewer",
    authNote: "whoever shared it or an admin",
    responses: { 200: { description: "Withdrawn (idempotent).", json: z.object({ revoked: z.string() }) }, 404: err("No such comparison.") },
  }),
};
