import { z } from "zod";
import { AppError } from "./app-error";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(s: string): boolean {
  return UUID.test(s);
}

/** A UUID field of a form or query, checked by the same isUuid as path ids. */
export function uuidSchema(message = "must be a UUID") {
  return z.string().refine(isUuid, { message });
}

/** A path id that is not a UUID is a 404, not a database error. */
export function uuidParam(value: string, what: string): string {
  if (!isUuid(value)) throw new AppError("NOT_FOUND", `No ${what} ${value.slice(0, 60)}.`);
  return value.toLowerCase();
}
