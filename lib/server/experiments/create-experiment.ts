import crypto from "node:crypto";
import type { Prisma } from "@prisma/client";
import { admitProbe, labImageRefusal, type Refusal } from "../../../probes/admission";
import { getProbe, probeChoices, resolvePreset } from "../../../probes/catalog";
import { checkMountOptions, isLabFs } from "../../../probes/lab/file-systems";
import { labImageBytesFor } from "../../../probes/lab/sizing";
import { capabilitiesSchema, type Capabilities } from "../../../probes/protocol/schemas";
import { db } from "../../db";
import { AppError } from "../../http/app-error";
import { missingToolMessage, reportedHostFacts } from "../hosts/host-summary";
import { notifyHost } from "../../instance/notify";
import { defaultArmLabel, type StoredArm, type StoredPolicy } from "./arm-plan";
import { queueRound } from "./queue-round";
import { createSweep } from "../sweeps/create-sweep";
import { trialBindingErrors } from "./trial-checks";
import { readHostProfile } from "../../../probes/profile/read-profile";
import type { CreateExperimentInput } from "../../api/schemas/experiments";

const MiB = 2 ** 20;
const mib = (b: number) => `${Math.ceil(b / MiB)} MiB`;

// One volume size for every lab arm, by the rule the agent checks too (probes/lab/sizing.ts):
// the probe's file is at most a quarter of the volume.
export { labImageBytesFor };

type FieldErrors = Record<string, string[]>;
const add = (errors: FieldErrors, field: string, message: string) => (errors[field] ??= []).push(message);

/** An arm's admission refusal (probes/admission.ts) as field errors; `targetField` is where its target came from. */
export function addRefusal(errors: FieldErrors, r: Refusal, targetField: string, hostName: string) {
  switch (r.kind) {
    case "invalid-params":
      for (const [k, msgs] of Object.entries(r.fieldErrors)) for (const m of msgs) if (!errors[`params.${k}`]?.includes(m)) add(errors, `params.${k}`, m);
      return;
    case "outside-allowed":
      return add(errors, targetField, `${r.target} is outside the directories this host's agent allows: ${r.allowedDirs.join(", ") || "(none)"}.`);
    case "no-space":
      return add(errors, targetField, `Needs ${mib(r.needsBytes)} free in ${r.target}, has ${mib(r.freeBytes)}.`);
    case "free-unknown":
      return add(errors, targetField, `The free space in ${r.target} cannot be read: ${r.error}.`);
    case "tool-missing":
      return add(errors, "probe", `${r.probe.tool.binary} is not installed on ${hostName}.`);
    case "unknown-probe":
      return add(errors, "probe", `Unknown probe "${r.probe}".`);
  }
}

/** The `--lab-device` the experiment's lab arms use, or null for images; refusals go to `lab.*`. */
function chooseLabDevice(input: CreateExperimentInput, caps: Capabilities, labArms: number, errors: FieldErrors): string | null {
  if (input.lab?.kind !== "device") return null;
  if (labArms === 0) {
    add(errors, "lab.kind", "A device lab needs at least one lab arm (fs).");
    return null;
  }
  const offered = caps.lab?.devices ?? [];
  if (offered.length === 0) {
    add(errors, "lab.kind", "This host's agent offers no whole device for the lab: start it with --lab-device DEV (it destroys the data on DEV).");
    return null;
  }
  const device = input.lab.device ?? (offered.length === 1 ? offered[0]?.path : undefined);
  if (!device) {
    add(errors, "lab.device", `Name the device: this host offers ${offered.map((d) => d.path).join(", ")}.`);
    return null;
  }
  if (!offered.some((d) => d.path === device)) {
    add(errors, "lab.device", `${device} is not one of this host's --lab-device devices (${offered.map((d) => d.path).join(", ")}).`);
    return null;
  }
  return device;
}

/**
 * Whether this host's agent may change each of an arm's tunables. Names and values were checked
 * by the body's schema with the catalogue's own validators (lib/api/schemas/experiments.ts).
 */
function checkTunables(arm: NonNullable<CreateExperimentInput["arms"][number]["tunables"]>, caps: Capabilities, field: string, errors: FieldErrors) {
  const allowed = caps.tunables?.allowed ?? [];
  for (const name of Object.keys(arm)) {
    if (!allowed.includes(name)) {
      add(errors, `${field}.${name}`, `This host's agent may not change ${name}: start it with --allow-tunable ${[...allowed, name].join(",")}.`);
    }
  }
}

/**
 * Validates an experiment against the catalog and what the host's agent reported (lab, allowed
 * tunables, directories, tools, free space), stores it and queues its first round. Nothing is
 * queued when any arm is refused: the answer names every field at fault. The agent checks it all
 * again before it changes anything.
 */
export async function createExperiment(opts: { input: CreateExperimentInput; createdById: string | null }): Promise<{ id: string }> {
  const { input } = opts;
  if (input.kind === "sweep") return createSweep(opts);
  const probe = getProbe(input.probe);
  if (!probe) throw new AppError("BAD_REQUEST", `Unknown probe "${input.probe}".`, { probe: [`Choose ${probeChoices()}.`] });
  const host = await db().host.findUnique({ where: { id: input.hostId }, select: { id: true, name: true, capabilities: true, profile: true } });
  if (!host) throw new AppError("NOT_FOUND", `No host ${input.hostId}.`);
  const parsedCaps = capabilitiesSchema.safeParse(host.capabilities);
  if (!parsedCaps.success) {
    throw new AppError("BAD_REQUEST", "This host's agent has not reported what it can do yet: start the agent on the host, then try again.", { hostId: ["No capabilities reported yet."] });
  }
  const caps = parsedCaps.data;
  const missing = missingToolMessage(host.capabilities, input.probe, host.name);
  if (missing) throw new AppError("BAD_REQUEST", missing, { probe: [probe.tool.installHint] });

  let base: Record<string, unknown> = {};
  if (input.preset) {
    const preset = resolvePreset(`${probe.id}:${input.preset}`);
    if (!preset) throw new AppError("BAD_REQUEST", `${probe.id} has no preset "${input.preset}".`, { preset: [`Choose ${Object.keys(probe.presets).join(", ")}.`] });
    base = preset.params as Record<string, unknown>;
  }
  base = { ...base, ...(input.params ?? {}) };

  const errors: FieldErrors = {};
  const arms: StoredArm[] = [];
  const paramsByArm: Record<string, unknown>[] = [];
  const labArms = input.arms.filter((a) => a.fs !== undefined);
  const labDir = caps.lab?.dir ?? null;
  const facts = reportedHostFacts(host, probe.id);
  let probeBytes = 0;
  input.arms.forEach((arm, i) => {
    const field = `arms.${i}`;
    let target: unknown = arm.target ?? base.target;
    if (arm.fs !== undefined) {
      target = labDir ?? "/";
      if (!caps.lab) add(errors, `${field}.fs`, "This host's agent was started without --lab DIR: it cannot make lab file systems.");
      else if (!isLabFs(arm.fs)) add(errors, `${field}.fs`, `"${arm.fs}" is not a lab file system: choose ext2, ext3, ext4, xfs or btrfs.`);
      else if (!caps.lab.fileSystems.includes(arm.fs)) add(errors, `${field}.fs`, `mkfs for ${arm.fs} is not installed on ${host.name}; it has ${caps.lab.fileSystems.join(", ") || "none"}.`);
      else if (arm.mountOptions) {
        const ok = checkMountOptions(arm.fs, arm.mountOptions);
        if (!ok.ok) add(errors, `${field}.mountOptions`, `${ok.error}.`);
      }
    } else if (typeof target !== "string" || target === "") {
      add(errors, `${field}.target`, "No target directory: give params.target or the arm's target.");
    }
    if (arm.tunables) checkTunables(arm.tunables, caps, `${field}.tunables`, errors);
    if (arm.tunables) for (const [k, m] of trialBindingErrors(host.name, readHostProfile(host.profile), arm.tunables, target, `${field}.tunables`)) add(errors, k, m);
    // A lab arm runs in the fresh mount the agent makes in its lab dir: the image's own size rule
    // (below) stands for the free-space part, and the lab dir is the one directory it may use.
    const armFacts = arm.fs !== undefined ? { ...facts, allowedDirs: [String(target)], freeBytesIn: () => null } : facts;
    const admitted = admitProbe({ probe: probe.id, params: { ...base, target } }, armFacts);
    if (!admitted.ok) {
      addRefusal(errors, admitted.refusal, arm.target ? `${field}.target` : "params.target", host.name);
      paramsByArm.push({});
    } else {
      paramsByArm.push(admitted.params as Record<string, unknown>);
      probeBytes = Math.max(probeBytes, admitted.writesBytes);
    }
    const stored: StoredArm = {
      label: "",
      ...(arm.fs !== undefined ? { fs: arm.fs, mountOptions: arm.mountOptions ?? [] } : {}),
      ...(arm.tunables ? { tunables: arm.tunables } : {}),
      ...(arm.target !== undefined && arm.fs === undefined ? { target: arm.target } : {}),
    };
    stored.label = arm.label ?? defaultArmLabel(stored);
    arms.push(stored);
  });

  const seen = new Map<string, number>();
  arms.forEach((a, i) => {
    const key = JSON.stringify({ ...a, label: undefined });
    const twin = seen.get(key);
    // Two identical arms that were both named on purpose are a control (A/A): it shows the spread
    // a "difference" has when nothing differs. Unnamed twins are a slip.
    const control = twin !== undefined && input.arms[i]?.label !== undefined && input.arms[twin]?.label !== undefined;
    if (twin !== undefined && !control) add(errors, `arms.${i}`, `Arm ${i + 1} is the same as arm ${twin + 1}: each arm must change something (to compare a setup with itself, give both arms a label).`);
    else if (twin === undefined) seen.set(key, i);
  });
  const labels = new Set<string>();
  arms.forEach((a, i) => {
    if (labels.has(a.label)) add(errors, `arms.${i}.label`, `Another arm is already called "${a.label}".`);
    labels.add(a.label);
  });

  let labImageBytes: number | null = null;
  const labDevice = chooseLabDevice(input, caps, labArms.length, errors);
  if (labArms.length > 0 && caps.lab) {
    labImageBytes = labImageBytesFor(probeBytes);
    const free = caps.lab.freeBytes;
    if (labDevice) {
      const size = caps.lab.devices?.find((d) => d.path === labDevice)?.sizeBytes ?? 0;
      if (size < labImageBytesFor(probeBytes)) add(errors, "lab.device", `The probe writes ${mib(probeBytes)}, at most a quarter of the volume: it needs a ${mib(labImageBytes)} device and ${labDevice} has ${mib(size)}.`);
      for (const a of arms) if (a.fs !== undefined) a.labDevice = labDevice;
    } else {
      // Images are made one at a time and removed after each run: each must fit, with the agent's margin.
      const noRoom = labImageRefusal(labImageBytes, free ?? null);
      if (noRoom) add(errors, "arms", `Each lab arm needs a ${mib(labImageBytes)} image (4 × the probe's ${mib(probeBytes)}, plus metadata; one at a time) and ${mib(noRoom.needsBytes)} free with the agent's margin, but the lab dir ${caps.lab.dir} has ${mib(noRoom.freeBytes)} free: make the probe smaller or free some space.`);
    }
  }
  if (input.repeats.dropCaches && !caps.tunables?.dropCaches) {
    add(errors, "repeats.dropCaches", "This host's agent may not drop the page cache: start it with --allow-tunable vm.drop_caches.");
  }
  if (Object.keys(errors).length > 0) {
    const first = Object.values(errors)[0]?.[0] ?? "The experiment is invalid.";
    throw new AppError("BAD_REQUEST", `The experiment cannot run on ${host.name}: ${first}`, errors);
  }

  const { min, max, stop, precisionPct, cvTarget, budgetMin, warmup, order, dropCaches } = input.repeats;
  const policy: StoredPolicy = { min, max, stop, precisionPct, cvTarget, budgetMin, warmup, order, dropCaches };
  const title = input.title ?? `${probe.id}${input.preset ? ` ${input.preset}` : ""}: ${arms.map((a) => a.label).join(" vs ")}`.slice(0, 200);
  const id = await db().$transaction(async (tx) => {
    const exp = await tx.experiment.create({
      data: {
        hostId: host.id,
        createdById: opts.createdById,
        title,
        probe: probe.id,
        preset: input.preset ?? null,
        params: (paramsByArm[0] ?? {}) as Prisma.InputJsonValue,
        arms: arms.map((a, i) => ({ ...a, params: paramsByArm[i] })) as unknown as Prisma.InputJsonValue,
        labImageBytes: labImageBytes === null ? null : BigInt(labImageBytes),
        policy: policy as unknown as Prisma.InputJsonValue,
        orderSeed: crypto.randomInt(1, 2 ** 31 - 1),
      },
      select: { id: true },
    });
    await queueRound(tx, exp.id, 0);
    return exp.id;
  });
  await notifyHost(host.id);
  return { id };
}
