import { agentOperations } from "./routes/agent";
import { comparisonOperations } from "./routes/comparisons";
import { experimentOperations } from "./routes/experiments";
import { hostOperations } from "./routes/hosts";
import { miscOperations } from "./routes/misc";
import { runOperations } from "./routes/runs";
import type { ApiOperation } from "./types";

/**
 * Every operation of the public API, one area file each. A new route adds its entry to its
 * area's file (or a new file and one line here); lib/http/openapi/openapi.test.ts fails while a
 * route under app/api is missing.
 */
export const API_OPERATIONS: readonly ApiOperation[] = [
  ...miscOperations,
  ...hostOperations,
  ...runOperations,
  ...comparisonOperations,
  ...experimentOperations,
  ...agentOperations,
];
