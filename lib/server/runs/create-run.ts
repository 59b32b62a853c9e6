import crypto from "node:crypto";
import type { Prisma } from "@prisma/client";
import { admitProbe, FREE_SPACE_MARGIN_BYTES, type Refusal } from "../../../probes/admission";
import { getProbe, probeChoices, resolvePreset } from "../../../probes/catalog";
import { unknownParamErrors } from "../../../probes/param-names";
import { capabilitiesSchema } from "../../../probes/protocol/schemas";
import type { CreateRunInput } from "../../api/schemas/runs";
import { db } from "../../db";
import { AppError } from "../../http/app-error";
import { missingToolMessage, reportedHostFacts } from "../hosts/host-summary";
import { notifyHost } from "../../instance/notify";
import { seriesKey, seriesTarget } from "../../trends/series-key";

const gib = (b: number) => (b / 2 ** 30).toFixed(1);

/**
 * Queues a probe run (or N repeats of one configuration) after the admission rule the agent
 * applies too (probes/admission.ts): a catalog probe, valid parameters, a target inside the
 * host's allowed directories, the tool installed, room for what it writes plus the agent's margin.
 */
export async function createRun({ input, createdById, scheduleId }: { input: CreateRunInput; createdById: string | null; scheduleId?: string }): Promise<{ ids: string[] }> {
  const probe = getProbe(input.probe);
  if (!probe) throw new AppError("BAD_REQUEST", `Unknown probe "${input.probe}".`, { probe: [`Choose ${probeChoices()}.`] });
  const preset = input.preset === undefined ? undefined : resolvePreset(`${input.probe}:${input.preset}`);
  if (input.preset !== undefined && !preset) {
    throw new AppError("BAD_REQUEST", `Unknown preset "${input.preset}" for ${input.probe}.`, { preset: [`Choose one of: ${Object.keys(probe.presets).join(", ")}.`] });
  }
  // What the caller typed must be names the probe knows (its parse would drop the others); a
  // schedule's firing is not checked again: it was when the schedule was saved.
  const unknown = scheduleId === undefined ? unknownParamErrors(input.probe, input.params) : {};
  if (Object.keys(unknown).length > 0) {
    throw new AppError("BAD_REQUEST", Object.values(unknown)[0]!, Object.fromEntries(Object.entries(unknown).map(([k, m]) => [`params.${k}`, [m]])));
  }
  const host = await db().host.findUnique({ where: { id: input.hostId }, select: { id: true, capabilities: true, profile: true } });
  if (!host) throw new AppError("NOT_FOUND", `No host ${input.hostId}.`);
  const admitted = admitProbe({ probe: input.probe, params: { ...(preset?.params ?? {}), ...input.params } }, reportedHostFacts(host, input.probe));
  if (!admitted.ok) throw refusalError(admitted.refusal, host);
  const params = admitted.params;
  // Its series: the same host, probe and validated parameters (lib/trends/series-key.ts).
  const key = seriesKey({ hostId: host.id, probe: input.probe, params });
  // Two instances queueing the first run of a series at once both try the insert: the loser reads
  // the winner's row (Prisma's upsert is a read then a write, not one statement).
  const series = await db()
    .series.upsert({
      where: { key },
      create: { key, hostId: host.id, probe: input.probe, preset: input.preset ?? null, params: params as Prisma.InputJsonValue, target: seriesTarget(params) },
      update: {},
      select: { id: true },
    })
    .catch(async (err: unknown) => {
      if ((err as { code?: string }).code !== "P2002") throw err;
      return db().series.findUniqueOrThrow({ where: { key }, select: { id: true } });
    });
  const repeatGroup = input.repeats > 1 ? crypto.randomUUID() : null;
  // A millisecond apart: the queue runs them in creation order, and "repeat 2 of 3" means that order
  // (inside one transaction the database's now() would give them all the same time).
  const base = Date.now();
  const ids = await db().$transaction(
    Array.from({ length: input.repeats }, (_, i) =>
      db().probeRun.create({
        data: {
          hostId: host.id,
          probe: input.probe,
          params: params as Prisma.InputJsonValue,
          preset: input.preset ?? null,
          seriesId: series.id,
          scheduleId: scheduleId ?? null,
          origin: "AGENT",
          status: "QUEUED",
          repeatGroup,
          createdById,
          createdAt: new Date(base + i),
        },
        select: { id: true },
      }),
    ),
  );
  await notifyHost(host.id);
  return { ids: ids.map((r) => r.id) };
}

/** An admission refusal as the launch form shows it: the message and the field at fault. */
function refusalError(r: Refusal, host: { capabilities: unknown; profile: unknown }): AppError {
  switch (r.kind) {
    case "unknown-probe":
      return new AppError("BAD_REQUEST", `Unknown probe "${r.probe}".`, { probe: [`Choose ${probeChoices()}.`] });
    case "invalid-params":
      return new AppError("BAD_REQUEST", r.message, Object.fromEntries(Object.entries(r.fieldErrors).map(([k, msgs]) => [`params.${k}`, msgs])));
    case "outside-allowed":
      // A host whose agent never reported its directories has no allowed target yet: queueing would
      // accept any path (/etc) and leave the refusal to the agent.
      if (!capabilitiesSchema.safeParse(host.capabilities).success) {
        return new AppError("BAD_REQUEST", "This host's agent has not reported its allowed directories yet: start the agent on the host, then launch again.", {
          "params.target": ["No allowed directories known for this host yet."],
        });
      }
      return new AppError("BAD_REQUEST", "The target is outside the directories this host's agent allows.", {
        "params.target": [`Choose one of: ${r.allowedDirs.join(", ") || "(none)"}`],
      });
    case "tool-missing":
      return new AppError("BAD_REQUEST", missingToolMessage(host.capabilities, r.probe.id, "this host", host.profile) ?? `${r.probe.tool.binary} is not installed on this host.`, {
        probe: [r.probe.tool.installHint],
      });
    case "no-space": {
      const margin = FREE_SPACE_MARGIN_BYTES / 2 ** 20;
      return new AppError("BAD_REQUEST", `This run writes ${gib(r.writesBytes)} GiB and needs ${gib(r.needsBytes)} GiB free with the agent's ${margin} MiB margin, but ${r.target} has ${gib(r.freeBytes)} GiB free.`, {
        "params.target": [`Needs ${gib(r.needsBytes)} GiB free, has ${gib(r.freeBytes)} GiB.`],
      });
    }
    case "free-unknown":
      return new AppError("BAD_REQUEST", `The free space in ${r.target} cannot be read: ${r.error}`, { "params.target": ["Free space unknown."] });
  }
}
