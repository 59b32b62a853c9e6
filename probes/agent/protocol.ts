// The agent ⇄ server protocol: request and response bodies of /api/agent/*, validated on both
// sides with these schemas. The agent initiates every connection (it may sit behind NAT);
// the server never sends a command line, only a catalog probe id and its parameters.
import { z } from "zod";

/** Upper bound of one chunk's text; the chunker splits larger output. */
export const MAX_CHUNK_CHARS = 64 * 1024;
/** Upper bound of chunks per upload request. */
export const MAX_CHUNKS_PER_REQUEST = 64;
/** How long the server holds a claim request open when there is no job. */
export const CLAIM_WAIT_SEC = 25;
/** A run whose agent has said nothing for this long becomes LOST. */
export const RUN_SILENCE_LOST_SEC = 60;

export const toolCapabilitySchema = z.object({
  installed: z.boolean(),
  version: z.string().max(200).nullable(),
  path: z.string().max(4096).nullable(),
});

export const capabilitiesSchema = z.object({
  agentVersion: z.string().max(50),
  tools: z.record(z.string().max(20), toolCapabilitySchema),
  allowedDirs: z.array(z.string().max(4096)).max(64),
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

export const claimRequestSchema = z.object({
  waitSec: z.number().int().min(0).max(30).default(CLAIM_WAIT_SEC),
});
export const jobSchema = z.object({
  runId: z.string().uuid(),
  probe: z.string().max(50),
  params: z.record(z.string(), z.unknown()),
});
export type Job = z.infer<typeof jobSchema>;

export const chunkSchema = z.object({
  seq: z.number().int().min(0).max(10_000_000),
  data: z.string().max(MAX_CHUNK_CHARS),
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
});
export type FinishRequest = z.infer<typeof finishRequestSchema>;
export const finishResponseSchema = z.object({ status: z.string() });
