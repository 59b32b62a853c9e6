import { AppError } from "./app-error";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(s: string): boolean {
  return UUID.test(s);
}

/** A path id that is not a UUID is a 404, not a database error. */
export function uuidParam(value: string, what: string): string {
  if (!isUuid(value)) throw new AppError("NOT_FOUND", `No ${what} ${value.slice(0, 60)}.`);
  return value.toLowerCase();
}
