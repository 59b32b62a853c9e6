// The agent ⇄ server protocol: request and response bodies of /api/agent/*, validated on both
// sides with these schemas. The agent initiates every connection (it may sit behind NAT);
// the server never sends a command line, only a catalog probe id and its parameters.
import { z } from "zod";

/** Upper bound of one chunk's text; the chunker splits larger output. */
export const MAX_CHUNK_CHARS = 64 * 1024;
/** Upper bound of chunks per upload request. */
export const MAX_CHUNKS_PER_REQUEST = 64;
/**
 * How long the server holds a claim request open when there is no job: an idle agent's only
 * traffic, so the longer the cheaper a fleet; under the 60 s idle timeout common to load balancers
 * and reverse proxies.
 */
export const CLAIM_WAIT_SEC = 50;
/** A run whose agent has said nothing for this long becomes LOST. */
export const RUN_SILENCE_LOST_SEC = 60;

export const toolCapabilitySchema = z.object({
  installed: z.boolean(),
  version: z.string().max(200).nullable(),
  path: z.string().max(4096).nullable(),
});

/** What the agent's `--lab DIR` allows: null when it was not started with one (or was refused). */
export const labCapabilitySchema = z.object({
  dir: z.string().max(4096),
  /** File systems whose mkfs exists on the host (ext2, ext3, ext4, xfs, btrfs). */
  fileSystems: z.array(z.string().max(20)).max(10),
  /** Free bytes on the lab dir's backing file system when the capabilities were read. */
  freeBytes: z.number().int().min(0).nullable(),
  /** Whole block devices named with `--lab-device` (mkfs'd for each arm), with their size; absent from older agents. */
  devices: z
    .array(z.object({ path: z.string().max(4096), sizeBytes: z.number().int().min(0) }))
    .max(16)
    .optional(),
});

/** One tunable the agent knows about: the owner allowed it or not, and its value now. */
export const tunableStateSchema = z.object({
  name: z.string().max(100),
  /** Block device for per-device tunables (queue/scheduler …), null for host-wide ones. */
  device: z.string().max(100).nullable(),
  value: z.string().max(500).nullable(),
  /** The value an unrestored journal entry says it had before the agent changed it. */
  changedFrom: z.string().max(500).nullable(),
});

export const tunablesCapabilitySchema = z.object({
  /** Names from `--allow-tunable`, each from the catalogue in probes/tunables/. */
  allowed: z.array(z.string().max(100)).max(64),
  /** May the agent drop the page cache between runs (it needs vm.drop_caches in `allowed`). */
  dropCaches: z.boolean(),
  current: z.array(tunableStateSchema).max(256),
});

export const capabilitiesSchema = z.object({
  agentVersion: z.string().max(50),
  /** probes/protocol/version.ts; absent from agents before 0.2.0, which speak protocol 1. */
  protocolVersion: z.number().int().min(1).max(1_000_000).optional(),
  tools: z.record(z.string().max(20), toolCapabilitySchema),
  allowedDirs: z.array(z.string().max(4096)).max(64),
  lab: labCapabilitySchema.nullable().optional(),
  tunables: tunablesCapabilitySchema.nullable().optional(),
});
export type Capabilities = z.infer<typeof capabilitiesSchema>;

/** Nesting depth of a profile: real ones are 4 levels deep; 100 k levels overflowed the server's stack. */
export const MAX_PROFILE_DEPTH = 32;

/** Whether JSON nests at most `max` levels; iterative, so hostile depth cannot overflow the stack here. */
export function jsonDepthAtMost(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, d] = stack.pop()!;
    if (typeof v !== "object" || v === null) continue;
    if (d >= max) return false;
    for (const child of Object.values(v)) stack.push([child, d + 1]);
  }
  return true;
}

/** Host profiles are free-form JSON collected by probes/profile; bounded in size and depth, not in shape. */
export const profileSchema = z
  .record(z.string(), z.unknown())
  .refine((p) => jsonDepthAtMost(p, MAX_PROFILE_DEPTH), `the profile nests deeper than ${MAX_PROFILE_DEPTH} levels`);

export const registerRequestSchema = z.object({
  registrationToken: z.string().min(10).max(200),
  profile: profileSchema,
  capabilities: capabilitiesSchema,
});
export const registerResponseSchema = z.object({
  hostId: z.string(),
  hostName: z.string(),
  credential: z.string(),
});

export const heartbeatRequestSchema = z.object({
  runningRunIds: z.array(z.string().uuid()).max(100),
  profile: profileSchema.optional(),
  capabilities: capabilitiesSchema.optional(),
});
export const heartbeatResponseSchema = z.object({
  /** Runs among runningRunIds whose cancellation a user asked for. */
  cancelRunIds: z.array(z.string()),
});

/**
 * How long a claim may wait for a job. Over HTTP the server answers within about CLAIM_WAIT_SEC
 * whatever is asked (proxies cut longer requests); over the agent's socket it waits as asked, up to
 * SOCKET_CLAIM_WAIT_SEC (agent-socket.ts), since the socket's pings keep the connection alive.
 */
export const claimRequestSchema = z.object({
  waitSec: z.number().int().min(0).max(900).default(CLAIM_WAIT_SEC),
});
/**
 * How an experiment's arm prepares the host before the probe runs. The agent checks every part
 * against its own flags (`--lab`, `--allow-tunable`); the server's checks are only a courtesy.
 */
export const jobSetupSchema = z.object({
  /** Make a fresh loop-mounted file system under the agent's lab dir and run the probe there. */
  lab: z
    .object({
      fs: z.string().max(20),
      /** Same for every arm of an experiment, so the arms are fair. */
      imageBytes: z.number().int().min(1).max(2 ** 50),
      mountOptions: z.array(z.string().max(100)).max(20).default([]),
      /** A loop-mounted image under the lab dir (default), or a whole `--lab-device` (then `device` names it). */
      kind: z.enum(["image", "device"]).default("image"),
      device: z.string().max(4096).optional(),
    })
    .refine((l) => l.kind === "image" || l.device !== undefined, { path: ["device"], message: "a device lab names its device" })
    .optional(),
  /** Tunable name (or "queue/scheduler" etc. for the target's device) → value, set before the probe, restored after. */
  tunables: z.record(z.string().max(100), z.string().max(500)).optional(),
  /** Write back and drop the page cache before the probe (needs vm.drop_caches allowed). */
  dropCaches: z.boolean().optional(),
});
export type JobSetup = z.infer<typeof jobSetupSchema>;

export const jobSchema = z.object({
  runId: z.string().uuid(),
  probe: z.string().max(50),
  params: z.record(z.string(), z.unknown()),
  setup: jobSetupSchema.optional(),
});
export type Job = z.infer<typeof jobSchema>;

/**
 * What the server asks of an agent besides running jobs, answered in a claim response without a
 * job (200 `{ requests: { … } }`). Every field is optional so that requests can be added without
 * breaking agents that do not know them; an agent ignores the ones it does not know.
 */
export const agentRequestsSchema = z
  .object({
    /** Detect the probe tools again and report them (with the profile) in a heartbeat. */
    recheckTools: z.boolean().optional(),
  })
  .passthrough();
export type AgentRequests = z.infer<typeof agentRequestsSchema>;
export const claimRequestsResponseSchema = z.object({ requests: agentRequestsSchema });
/** A claim's 200 body: a job, or (no job) the host's pending requests. */
export const claimResponseSchema = z.union([jobSchema, claimRequestsResponseSchema]);

/** Upper bound of telemetry samples one chunk carries (one a second; a chunk waits ≤ 100 ms). */
export const MAX_SAMPLES_PER_CHUNK = 64;

// Bounded but not clamped: a counter the kernel steps back (iowait can) must not get a chunk refused.
const rate = z.number().finite().min(-1e15).max(1e15);
const share = z.number().finite().min(-1000).max(1000);
/** One second of the machine as probes/telemetry/sampler.ts measures it (units in probes/telemetry/types.ts). */
export const telemetrySampleSchema = z.object({
  t: z.number().finite().min(0).max(10_000_000),
  cpu: z.object({ usr: share, sys: share, iowait: share, idle: share, steal: share }),
  device: z
    .object({ name: z.string().max(100), rs: rate, ws: rate, rkBs: rate, wkBs: rate, rAwait: rate, wAwait: rate, aquSz: rate, util: share })
    .nullable(),
  memory: z.object({ free: rate, available: rate, cached: rate, dirty: rate, writeback: rate }),
  paging: z.object({ pgpgin: rate, pgpgout: rate, majflt: rate, pgscank: rate, pgscand: rate, pgsteal: rate }),
  writeback: z.object({ dirtiedKBs: rate, writtenKBs: rate, limitKb: rate, backgroundLimitKb: rate }),
  numaFree: z.record(z.string().regex(/^\d{1,4}$/), rate).optional(),
});
export type TelemetrySampleWire = z.infer<typeof telemetrySampleSchema>;

/**
 * A piece of a run's output. Telemetry rides in the same numbered chunks as the text (a chunk
 * may carry samples and no text), so it shares the spool, the ordering, the acknowledgement and
 * the replay of the output, and the finish's "every seq 0..lastSeq stored" check covers it too.
 */
export const chunkSchema = z.object({
  seq: z.number().int().min(0).max(10_000_000),
  data: z.string().max(MAX_CHUNK_CHARS),
  telemetry: z.array(telemetrySampleSchema).max(MAX_SAMPLES_PER_CHUNK).optional(),
});
export type Chunk = z.infer<typeof chunkSchema>;
export const chunksRequestSchema = z.object({
  chunks: z.array(chunkSchema).min(1).max(MAX_CHUNKS_PER_REQUEST),
});
export const chunksResponseSchema = z.object({
  stored: z.number().int(),
  duplicates: z.number().int(),
  cancelRequested: z.boolean(),
});

/** What an arm's setup did: the lab file system as the kernel mounted it, the tunables changed and put back. */
export const setupReportSchema = z.object({
  lab: z
    .object({
      fsType: z.string().max(20),
      mkfsCommand: z.string().max(2000),
      mountOptions: z.array(z.string().max(200)).max(100),
      loopDevice: z.string().max(100),
      /** The kernel driver serving the mount (ext3 volumes are served by ext4 on current kernels). */
      driver: z.string().max(20),
      imageBytes: z.number().int().min(0),
      /** Unmounted, detached and deleted after the run. */
      removed: z.boolean(),
      /**
       * How the volume reached the disk: a loop device with direct I/O, a loop device through the
       * backing file system's page cache (the kernel refused direct I/O), or a whole device.
       * Absent in reports from older agents (which attached buffered loop devices).
       */
      kind: z.enum(["loop-dio", "loop-buffered", "device"]).optional(),
      /** /sys/block/loopN/loop/dio read 1 (true for a whole device). */
      dio: z.boolean().optional(),
      /** Why direct I/O was not in effect. */
      dioReason: z.string().max(500).nullable().optional(),
      /** The `--lab-device` used, null for a loop image. */
      device: z.string().max(4096).nullable().optional(),
    })
    .nullable(),
  tunables: z
    .array(
      z.object({
        name: z.string().max(100),
        device: z.string().max(100).nullable(),
        from: z.string().max(500),
        to: z.string().max(500),
        restored: z.boolean(),
      }),
    )
    .max(64),
  droppedCaches: z.boolean(),
  /** Why the setup could not be done (then the probe did not run). */
  error: z.string().max(2000).nullable(),
  /**
   * What could not be put back or taken down after the run (a restore that did not read back,
   * a busy unmount); it stays in the agent's journal and is retried at its next start.
   */
  cleanupError: z.string().max(2000).nullable().optional(),
});
export type SetupReport = z.infer<typeof setupReportSchema>;

/** Bounds of a finish's agentNotes. */
export const MAX_AGENT_NOTES = 8;
export const MAX_AGENT_NOTE_CHARS = 500;

export const finishRequestSchema = z.object({
  /** null when the process never started (refused job) or was killed by a signal. */
  exitCode: z.number().int().min(-2_147_483_648).max(2_147_483_647).nullable(),
  signal: z.string().max(20).nullable().default(null),
  durationMs: z.number().int().min(0).max(2_147_483_647),
  /** Highest seq the agent produced for this run, -1 if none: the server checks it holds them all. */
  lastSeq: z.number().int().min(-1).max(10_000_000),
  /** Why the agent refused or aborted the job; shown to the user. */
  error: z.string().max(2000).nullable().default(null),
  cancelled: z.boolean().default(false),
  timedOut: z.boolean().default(false),
  /** The agent restarted while this run's process was alive: output up to lastSeq is all there is. */
  interrupted: z.boolean().default(false),
  /** Host profile plus the target directory's file system, device, mount options and medium. */
  profile: profileSchema.nullable().default(null),
  /** What the job's setup did on the host, for the run's record; null without a setup. */
  setup: setupReportSchema.nullable().optional(),
  /**
   * What the operator should know about how the agent handled the run that did not stop the
   * probe (its spool could not be written, so the output went from memory only): shown with the
   * run's warnings, never a reason to fail it. Absent from older agents.
   */
  agentNotes: z.array(z.string().max(MAX_AGENT_NOTE_CHARS)).max(MAX_AGENT_NOTES).optional(),
});
export type FinishRequest = z.infer<typeof finishRequestSchema>;
export const finishResponseSchema = z.object({ status: z.string() });

/** Upper bound of one history day's `sadf -j` output (a day at 1-minute samples is ~1.5 MB). */
export const MAX_HISTORY_OUTPUT_CHARS = 8 * 1024 * 1024;

/**
 * One finished day of the host's sysstat files (POST /api/agent/history). `day` is the file's
 * own header date as sadf prints it; the server checks it against the output and keeps one run
 * per host and day, so a repeat answers the existing run instead of storing another.
 */
/** Whether "YYYY-MM-DD" names a day that exists (no month 13, no 31 June, 29 February only in leap years). */
export function isCalendarDay(day: string): boolean {
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  // Date.UTC maps years 0-99 to 1900-1999; setUTCFullYear gives the year as written.
  date.setUTCFullYear(y);
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

export const historyDayRequestSchema = z.object({
  // A real calendar date: "2026-13-45" would otherwise reach PostgreSQL's ::date cast and fail there.
  day: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, "day must be YYYY-MM-DD")
    .refine(isCalendarDay, "day must be a real calendar date (month 01-12, a day that month has)"),
  /** The sa file's path on the host, for the run's notes. */
  file: z.string().min(1).max(4096),
  output: z.string().min(1).max(MAX_HISTORY_OUTPUT_CHARS),
});
export type HistoryDayRequest = z.infer<typeof historyDayRequestSchema>;
export const historyDayResponseSchema = z.object({
  runId: z.string().uuid(),
  /** false when this host's day was already stored (the answer names that run). */
  created: z.boolean(),
});
