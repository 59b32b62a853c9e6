import { z } from "zod";
import { comparisonPreviewQuerySchema } from "../../query-schemas";
import { createComparisonSchema } from "../../../server/comparisons/create-comparison";
import { authErrors, err } from "../common";
import type { ApiOperation } from "../types";

const comparisonSchema = z
  .object({
    title: z.string(),
    createdAt: z.string(),
    runs: z.array(z.record(z.string(), z.unknown())).describe("Each run's label, profile facts and result, as frozen at share time."),
  })
  .meta({ id: "Comparison" });
const gone = err("Unknown, deleted (404) or withdrawn / expired (410).");

export const comparisonOperations: ApiOperation[] = [
  {
    method: "post",
    path: "/api/comparisons",
    group: "Comparisons",
    summary: "Freeze runs into a public share link",
    auth: "operator",
    body: createComparisonSchema,
    responses: {
      201: { description: "The share link.", schema: z.object({ slug: z.string(), url: z.string() }) },
      400: err("Invalid run ids or options."),
      404: err("A run does not exist."),
      ...authErrors,
    },
  },
  {
    method: "get",
    path: "/api/comparisons/preview",
    group: "Comparisons",
    summary: "Export runs side by side without sharing them",
    auth: "viewer",
    query: comparisonPreviewQuerySchema,
    responses: {
      200: { description: "format=json: the comparison; format=csv: one row per measurement.", schema: comparisonSchema },
      400: err("Bad run ids or format."),
      404: err("A run does not exist."),
      ...authErrors,
    },
  },
  {
    method: "get",
    path: "/api/comparisons/{slug}",
    group: "Comparisons",
    summary: "A shared comparison as JSON",
    auth: "public",
    responses: { 200: { description: "The frozen comparison.", schema: comparisonSchema }, 404: gone, 410: gone },
  },
  {
    method: "delete",
    path: "/api/comparisons/{slug}",
    group: "Comparisons",
    summary: "Delete a shared comparison and its snapshot",
    description: "Afterwards the link answers 404. The runs are untouched.",
    auth: "operator",
    authNote: "whoever shared it or an admin",
    responses: { 200: { description: "Deleted.", schema: z.object({ deleted: z.string() }) }, 404: err("No such comparison."), ...authErrors },
  },
  {
    method: "get",
    path: "/api/comparisons/{slug}/csv",
    group: "Comparisons",
    summary: "A shared comparison as CSV, one row per measurement",
    auth: "public",
    responses: { 200: { description: "CSV in display units.", contentType: "text/csv" }, 404: gone, 410: gone },
  },
  {
    method: "post",
    path: "/api/comparisons/{slug}/revoke",
    group: "Comparisons",
    summary: "Withdraw a share link (it then answers 410 Gone)",
    auth: "viewer",
    authNote: "whoever shared it or an admin",
    responses: { 200: { description: "Withdrawn (idempotent).", schema: z.object({ revoked: z.string() }) }, 404: err("No such comparison."), ...authErrors },
  },
];
