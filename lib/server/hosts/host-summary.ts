import type { HostFacts } from "../../../probes/admission";
import { capabilitiesSchema } from "../../../probes/protocol/schemas";
import { getProbe, probeIds } from "../../../probes/catalog";
import { readHostProfile } from "../../../probes/profile/read-profile";
import type { TargetProfile } from "../../../probes/profile/types";
import { agentIsOutdated, CURRENT_AGENT_VERSION } from "../agent/compatibility";
import { distroFamily, installCommand, osReleaseFromPrettyName, SYSTEM_TOOLS, type OsRelease, type SystemTool } from "../../../probes/profile/install-commands";

/** An agent seen within this long is online; a schedule firing for a host seen longer ago is recorded as missed. */
export const ONLINE_MS = 90_000;

/** The allowed directories' facts (fs, medium, free space) from a host profile; [] when unknown. */
export function profileTargets(profile: unknown): TargetProfile[] {
  return readHostProfile(profile).targets;
}

/**
 * The admission facts of a host as its agent last reported them (capabilities and profile); the
 * agent gathers the same facts from the host itself before it runs anything.
 */
export function reportedHostFacts(host: { capabilities: unknown; profile: unknown }, probeId: string): HostFacts {
  const caps = capabilitiesSchema.safeParse(host.capabilities);
  const binary = getProbe(probeId)?.tool.binary;
  const tool = caps.success && binary ? caps.data.tools[binary] : undefined;
  const targets = profileTargets(host.profile);
  return {
    allowedDirs: caps.success ? caps.data.allowedDirs : [],
    toolInstalled: tool ? tool.installed : null,
    freeBytesIn: (target) => targets.find((t) => t.path === target)?.freeBytes ?? null,
  };
}

/**
 * The host's distribution as install commands need it: the os-release ID/ID_LIKE the agent
 * reported, else a guess from the pretty name older agents sent.
 */
function hostOsRelease(profile: unknown): OsRelease | null {
  const p = readHostProfile(profile);
  if (p.os) return { id: p.os.id, idLike: p.os.idLike, versionId: p.os.versionId, prettyName: p.distro };
  return osReleaseFromPrettyName(p.distro);
}

/**
 * Why a probe cannot run on a host whose agent reported its tool missing, or null; with the
 * exact command that installs it on the host's distribution when that is known.
 */
export function missingToolMessage(capabilities: unknown, probeId: string, hostName: string, profile?: unknown): string | null {
  const def = getProbe(probeId);
  const caps = capabilitiesSchema.safeParse(capabilities);
  const tool = def && caps.success ? caps.data.tools[def.tool.binary] : undefined;
  if (!def || !tool || tool.installed) return null;
  const binary = def.tool.binary;
  const os = hostOsRelease(profile);
  const install = distroFamily(os) && isSystemTool(binary) ? `Install it with: ${installCommand(os, [binary])}` : def.tool.installHint;
  return `${binary} is not installed on ${hostName}. ${install} — then press "Re-check tools" on the host page (or wait up to five minutes).`;
}

function isSystemTool(name: string): name is SystemTool {
  return (SYSTEM_TOOLS as readonly string[]).includes(name);
}

/** What the hosts pages show, read defensively from whatever profile the agent sent. */
export function hostSummary(h: {
  name: string;
  lastSeenAt: Date | null;
  agentRegisteredAt: Date | null;
  profile: unknown;
  capabilities: unknown;
  toolsCheckedAt: Date | null;
  toolsRecheckRequestedAt: Date | null;
  agentVersion?: string | null;
}) {
  const profile = readHostProfile(h.profile);
  const caps = capabilitiesSchema.safeParse(h.capabilities);
  const online = !!h.lastSeenAt && Date.now() - h.lastSeenAt.getTime() < ONLINE_MS;
  const agentState = !h.agentRegisteredAt ? "waiting for agent" : online ? "online" : `offline since ${h.lastSeenAt?.toISOString().slice(0, 16).replace("T", " ") ?? "?"}`;
  const gib = (b: number | null) => (b ? `${(b / 2 ** 30).toFixed(1)} GiB` : null);
  const { cpu } = profile;
  return {
    profile,
    online,
    agentState,
    kernel: profile.kernel.release,
    cpu: cpu.count === null && cpu.model === null ? null : `${cpu.count ?? "?"} × ${cpu.model ?? "?"}`,
    memory: gib(profile.memory.totalBytes),
    targets: profile.targets,
    tools: caps.success ? caps.data.tools : {},
    /** The probes this host cannot run, each with what to install. */
    missingTools: probeIds.flatMap((probe) => {
      const message = missingToolMessage(h.capabilities, probe, h.name, h.profile);
      return message ? [{ probe, message }] : [];
    }),
    toolsCheckedAt: h.toolsCheckedAt,
    recheckPending: !!h.toolsRecheckRequestedAt && (!h.toolsCheckedAt || h.toolsRecheckRequestedAt > h.toolsCheckedAt),
    allowedDirs: caps.success ? caps.data.allowedDirs : [],
    /** The agent's release as last reported (the column; the capabilities for a row not yet migrated). */
    agentVersion: h.agentVersion ?? (caps.success ? caps.data.agentVersion : null),
    agentOutdated: agentIsOutdated(h.agentVersion ?? (caps.success ? caps.data.agentVersion : null)),
    currentAgentVersion: CURRENT_AGENT_VERSION,
  };
}
