// An experiment's arms as stored, their labels, and the job setup each arm's runs carry to the agent.
import type { JobSetup } from "../../../probes/protocol/schemas";
import type { RepeatPolicy } from "../../experiments/schedule";

export interface StoredArm {
  label: string;
  fs?: string;
  mountOptions?: string[];
  /** A lab arm on this whole `--lab-device` instead of an image (every lab arm of the experiment names the same one). */
  labDevice?: string;
  tunables?: Record<string, string>;
  target?: string;
  /** The probe's validated parameters for this arm (a lab arm's target is the agent's lab dir). */
  params?: Record<string, unknown>;
}

export interface StoredPolicy extends RepeatPolicy {
  dropCaches: boolean;
}

/** "xfs", "ext4 (noatime)", "vm.dirty_ratio=5", "/srv/ssd": what an arm changes, in a few words. */
export function defaultArmLabel(arm: Omit<StoredArm, "label" | "params">): string {
  const parts: string[] = [];
  if (arm.fs) parts.push(arm.mountOptions?.length ? `${arm.fs} (${arm.mountOptions.join(",")})` : arm.fs);
  if (arm.target) parts.push(arm.target);
  for (const [k, v] of Object.entries(arm.tunables ?? {})) parts.push(`${k}=${v}`);
  return parts.join(" ").slice(0, 60) || "arm";
}

/** What the agent does around the probe for one arm. */
export function jobSetupOf(arm: StoredArm, policy: StoredPolicy, labImageBytes: number | null): JobSetup | undefined {
  const setup: JobSetup = {};
  if (arm.fs && labImageBytes) {
    setup.lab = arm.labDevice
      ? { fs: arm.fs, imageBytes: labImageBytes, mountOptions: arm.mountOptions ?? [], kind: "device", device: arm.labDevice }
      : { fs: arm.fs, imageBytes: labImageBytes, mountOptions: arm.mountOptions ?? [], kind: "image" };
  }
  if (arm.tunables && Object.keys(arm.tunables).length > 0) setup.tunables = arm.tunables;
  if (policy.dropCaches) setup.dropCaches = true;
  return Object.keys(setup).length > 0 ? setup : undefined;
}

export function readArms(json: unknown): StoredArm[] {
  return Array.isArray(json) ? (json as StoredArm[]) : [];
}

/**
 * The stored policy with defaults. A policy stored before the precision rule existed has no
 * `stop`: it reads as stop "cv", no warm-up and no budget, so it keeps behaving as it did.
 */
export function readPolicy(json: unknown): StoredPolicy {
  const p = (json ?? {}) as Partial<StoredPolicy>;
  const legacy = p.stop !== "precision" && p.stop !== "cv";
  return {
    min: p.min ?? 3,
    max: p.max ?? 10,
    cvTarget: p.cvTarget ?? 2.5,
    order: p.order === "random" ? "random" : "abba",
    dropCaches: p.dropCaches === true,
    stop: legacy ? "cv" : (p.stop as "precision" | "cv"),
    precisionPct: typeof p.precisionPct === "number" ? p.precisionPct : 5,
    budgetMin: legacy ? null : typeof p.budgetMin === "number" ? p.budgetMin : null,
    warmup: legacy ? false : p.warmup === true,
  };
}

/** 1 when round 0 is a warm-up, else 0: measured rounds start after it. */
export const warmupRounds = (p: Pick<StoredPolicy, "warmup">) => (p.warmup ? 1 : 0);
