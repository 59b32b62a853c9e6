import { capabilitiesSchema } from "../../../probes/protocol/schemas";
import { getProbe } from "../../../probes/catalog";
import { readHostProfile } from "../../../probes/profile/read-profile";
import type { TargetProfile } from "../../../probes/profile/types";

const ONLINE_MS = 90_000;

/** The allowed directories' facts (fs, medium, free space) from a host profile; [] when unknown. */
export function profileTargets(profile: unknown): TargetProfile[] {
  return readHostProfile(profile).targets;
}

/** Why a probe cannot run on a host whose agent reported its tool missing, or null. */
export function missingToolMessage(capabilities: unknown, probeId: string, hostName: string): string | null {
  const def = getProbe(probeId);
  const caps = capabilitiesSchema.safeParse(capabilities);
  const tool = def && caps.success ? caps.data.tools[def.tool.binary] : undefined;
  return def && tool && !tool.installed ? `${def.tool.binary} is not installed on ${hostName}. ${def.tool.installHint}` : null;
}

/** What the hosts pages show, read defensively from whatever profile the agent sent. */
export function hostSummary(h: { lastSeenAt: Date | null; agentRegisteredAt: Date | null; profile: unknown; capabilities: unknown }) {
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
    allowedDirs: caps.success ? caps.data.allowedDirs : [],
  };
}
