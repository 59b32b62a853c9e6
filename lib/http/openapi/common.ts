import { z } from "zod";
import type { ApiResponse } from "./types";

/** The one error body every route answers with (lib/http/handle-route.ts errorResponse). */
export const errorBodySchema = z
  .object({
    error: z.string().describe("What went wrong, in words a person can act on."),
    fieldErrors: z.record(z.string(), z.array(z.string())).optional().describe("Per field (dotted path) messages for 400s."),
  })
  .meta({ id: "Error" });

export const err = (description: string): ApiResponse => ({ description, schema: errorBodySchema });

/** Responses that any authenticated route may give. */
export const authErrors = {
  401: err("No or unknown credentials."),
  403: err("Signed in, but the role or ownership does not allow it."),
} as const;

export const uuid = z.string().uuid();
