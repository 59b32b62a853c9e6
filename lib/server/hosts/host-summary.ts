import { z } from "zod";
import { capabilitiesSchema } from "../../../probes/protocol/capabilities";
import { getProbe } from "../../../probes/catalog";

const profileSchema = z
  .object({
    hostname: z.string().optional(),
    kernel: z.object({ release: z.string() }).partial().optional(),
    distro: z.string().nullable().optional(),
    cpu: z.object({ model: z.string().nullable(), count: z.number() }).partial().optional(),
    memory: z.object({ totalBytes: z.number() }).partial().optional(),
    numa: z.object({ nodes: z.number() }).partial().optional(),
    sysctls: z.record(z.string(), z.string()).optional(),
    thp: z.object({ enabled: z.string().nullable(), defrag: z.string().nullable() }).partial().optional(),
    blockDevices: z
      .array(z.object({ name: z.string(), model: z.string().nullable().optional(), sizeBytes: z.number().optional(), rotational: z.boolean().nullable().optional(), scheduler: z.string().nullable().optional() }).passthrough())
      .optional(),
    targets: z
      .array(
        z
          .object({
            path: z.string(),
            fsType: z.string().nullable().optional(),
            device: z.string().nullable().optional(),
            source: z.string().nullable().optional(),
            mountOptions: z.array(z.string()).optional(),
            medium: z.string().nullable().optional(),
            freeBytes: z.number().nullable().optional(),
            totalBytes: z.number().nullable().optional(),
          })
          .passthrough(),
      )
      .optional(),
  })
  .passthrough();

export type HostProfileView = z.infer<typeof profileSchema>;

const ONLINE_MS = 90_000;

/** The allowed directories' facts (fs, medium, free space) from a host profile; [] when unknown. */
export function profileTargets(profile: unknown): NonNullable<HostProfileView["targets"]> {
  return profileSchema.safeParse(profile ?? {}).data?.targets ?? [];
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
  const p = profileSchema.safeParse(h.profile ?? {});
  const profile: HostProfileView = p.success ? p.data : {};
  const caps = capabilitiesSchema.safeParse(h.capabilities);
  const online = !!h.lastSeenAt && Date.now() - h.lastSeenAt.getTime() < ONLINE_MS;
  const agentState = !h.agentRegisteredAt ? "waiting for agent" : online ? "online" : `offline since ${h.lastSeenAt?.toISOString().slice(0, 16).replace("T", " ") ?? "?"}`;
  const gib = (b?: number) => (b ? `${(b / 2 ** 30).toFixed(1)} GiB` : null);
  return {
    profile,
    online,
    agentState,
    kernel: profile.kernel?.release ?? null,
    cpu: profile.cpu ? `${profile.cpu.count ?? "?"} × ${profile.cpu.model ?? "?"}` : null,
    memory: gib(profile.memory?.totalBytes),
    targets: profile.targets ?? [],
    tools: caps.success ? caps.data.tools : {},
    allowedDirs: caps.success ? caps.data.allowedDirs : [],
  };
}
