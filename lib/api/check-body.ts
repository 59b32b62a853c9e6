import type { z } from "zod";
import { AppError } from "../http/app-error";
import { fieldErrorsOf } from "../http/handle-route";
import type { Operation } from "./operation";

/**
 * A request body (already JSON) checked against its operation's schema: 400 naming each field, or
 * 413 when a field whose limit is the operation's size limit (an import's output) is too long.
 * Routes (app/api/handle.ts) and the agent gateway (lib/gateway) both call it.
 */
export function checkBody(op: Operation, schema: z.ZodType, json: unknown): unknown {
  const parsed = schema.safeParse(json);
  if (parsed.success) return parsed.data;
  const fieldErrors = fieldErrorsOf(parsed.error);
  const tooBig = parsed.error.issues.find((i) => i.code === "too_big" && op.tooLargeFields?.includes(String(i.path[0])));
  if (tooBig) throw new AppError("PAYLOAD_TOO_LARGE", tooBig.message, fieldErrors);
  // One refusal is its own message ("Repeats must be between 1 and 20."); several name their fields.
  const keys = Object.keys(fieldErrors);
  const issue = parsed.error.issues.length === 1 ? parsed.error.issues[0]! : null;
  // zod's own wording ("Too big: expected number to be <=50") does not say which field it means.
  const only = issue ? (/^(Too (big|small)|Invalid|Expected|Unrecognized)/.test(issue.message) ? `${keys[0]}: ${issue.message}` : issue.message) : null;
  throw new AppError("BAD_REQUEST", only ?? `Some fields are invalid: ${keys.join(", ")}.`, fieldErrors);
}
