import type { Prisma } from "@prisma/client";
import type { Capabilities } from "../../../probes/protocol/schemas";
import { agentIsOutdated } from "../agent/compatibility";

type Stored = {
  id: string;
  name: string;
  lastSeenAt: Date | null;
  agentRegisteredAt: Date | null;
  createdAt: Date;
  capabilities: Prisma.JsonValue;
  profile: Prisma.JsonValue;
  toolsCheckedAt: Date | null;
  toolsRecheckRequestedAt: Date | null;
  agentVersion: string | null;
};

const iso = (d: Date | null) => d?.toISOString() ?? null;
const record = (v: Prisma.JsonValue): Record<string, unknown> | null => (v && typeof v === "object" && !Array.isArray(v) ? v : null);

/**
 * A host row as the API answers it (lib/api/schemas/hosts.ts hostSchema): dates as ISO text.
 * capabilities were parsed with the protocol's schema when the agent sent them.
 */
export function hostToJson(h: Stored) {
  return {
    id: h.id,
    name: h.name,
    lastSeenAt: iso(h.lastSeenAt),
    agentRegisteredAt: iso(h.agentRegisteredAt),
    createdAt: h.createdAt.toISOString(),
    capabilities: record(h.capabilities) as Capabilities | null,
    profile: record(h.profile),
    toolsCheckedAt: iso(h.toolsCheckedAt),
    toolsRecheckRequestedAt: iso(h.toolsRecheckRequestedAt),
    agentVersion: h.agentVersion,
    agentOutdated: agentIsOutdated(h.agentVersion),
  };
}

/** GET /api/hosts/{id}: the host with its medium overrides, registration expiry and who added it. */
export function hostDetailToJson(h: Stored & { mediumOverrides: Prisma.JsonValue; registrationExpiresAt: Date | null; createdById: string | null }) {
  const overrides = record(h.mediumOverrides) ?? {};
  return {
    ...hostToJson(h),
    mediumOverrides: Object.fromEntries(Object.entries(overrides).filter((e): e is [string, string] => typeof e[1] === "string")),
    registrationExpiresAt: iso(h.registrationExpiresAt),
    createdById: h.createdById,
  };
}
