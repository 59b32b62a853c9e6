import { NextResponse } from "next/server";
import { z } from "zod";
import { AppError } from "./app-error";

/** Maps an error to a JSON response: AppErrors say what to fix; anything else is a bare 500. */
export function errorResponse(err: unknown): NextResponse {
  if (err instanceof AppError) {
    return NextResponse.json(
      { error: err.message, ...(err.fieldErrors ? { fieldErrors: err.fieldErrors } : {}) },
      { status: err.status },
    );
  }
  console.error("unhandled error in route handler:", err);
  return NextResponse.json({ error: "Internal error: the server log has the details." }, { status: 500 });
}

/** Wraps a route handler so every error leaves as JSON without stack traces or SQL. */
export function route<A extends unknown[]>(fn: (...args: A) => Promise<Response>) {
  return async (...args: A): Promise<Response> => {
    try {
      return await fn(...args);
    } catch (err) {
      return errorResponse(err);
    }
  };
}

export function fieldErrorsOf(error: z.ZodError): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.join(".") : "_";
    (out[key] ??= []).push(issue.message);
  }
  return out;
}

/** Parses a JSON body with a zod schema; a bad body becomes a 400 with field errors. */
export async function parseJsonBody<T extends z.ZodType>(req: Request, schema: T): Promise<z.infer<T>> {
  let body: unknown;
  try {
    body = await req.json();
  } catch {
    throw new AppError("BAD_REQUEST", "The request body must be JSON.");
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    throw new AppError("BAD_REQUEST", "Some fields are invalid.", fieldErrorsOf(parsed.error));
  }
  return parsed.data;
}
