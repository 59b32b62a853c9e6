import { agentApi } from "./agent";
import { comparisonsApi } from "./comparisons";
import { experimentsApi } from "./experiments";
import { hostsApi } from "./hosts";
import type { Operation, Role } from "./operation";
import { routeKey } from "./operation";
import { runsApi } from "./runs";
import { schedulesApi } from "./schedules";
import { seriesApi } from "./series";
import { serviceApi } from "./service";
import { webhooksApi } from "./webhooks";

/**
 * Every operation of the API, one area file each. A route file serves an operation with
 * handle(); lib/api/openapi.test.ts fails while a route under app/api is not one of these.
 */
export const API_OPERATIONS: readonly Operation[] = [
  ...Object.values(serviceApi),
  ...Object.values(hostsApi),
  ...Object.values(runsApi),
  ...Object.values(comparisonsApi),
  ...Object.values(experimentsApi),
  ...Object.values(schedulesApi),
  ...Object.values(seriesApi),
  ...Object.values(agentApi),
  ...Object.values(webhooksApi),
];

/** "GET /api/runs/[id]" → who may call it: the table the e2e access test walks. */
export function accessPolicy(operations: readonly Operation[] = API_OPERATIONS): Record<string, Role> {
  return Object.fromEntries(operations.map((op) => [routeKey(op), op.role]));
}
