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
  // The message names each field too, for clients that show only the message.
  const said = Object.entries(fieldErrors).map(([k, m]) => `${k}: ${m.join(" ")}`).join("; ");
  throw new AppError("BAD_REQUEST", `Some fields are invalid (${said}).`, fieldErrors);
}
