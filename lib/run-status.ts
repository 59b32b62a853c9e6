// The one list of run statuses (and origins) outside the database schema. Client components
// cannot import Prisma's runtime enums, so the tuples live here; the type checks below fail the
// build if prisma/schema.prisma gains or loses a value these lists do not.
import type { RunOrigin, RunStatus } from "@prisma/client";

export const RUN_STATUSES = ["QUEUED", "RUNNING", "SUCCEEDED", "FAILED", "CANCELLED", "LOST"] as const satisfies readonly RunStatus[];

/** Statuses after which a run's log and status no longer change on their own. */
export const ENDED_STATUSES: ReadonlySet<string> = new Set<RunStatus>(["SUCCEEDED", "FAILED", "CANCELLED", "LOST"]);

export const RUN_ORIGINS = ["AGENT", "IMPORTED", "REFERENCE", "HISTORY"] as const satisfies readonly RunOrigin[];

/** How each origin reads in lists and filters. */
export const RUN_ORIGIN_LABELS: Record<(typeof RUN_ORIGINS)[number], string> = {
  AGENT: "launched",
  IMPORTED: "imported",
  REFERENCE: "reference",
  HISTORY: "host history",
};

type Missing<All, Listed> = [Exclude<All, Listed>] extends [never] ? true : false;
const statusesComplete: Missing<RunStatus, (typeof RUN_STATUSES)[number]> = true;
const originsComplete: Missing<RunOrigin, (typeof RUN_ORIGINS)[number]> = true;
void statusesComplete;
void originsComplete;
