import crypto from "node:crypto";
import path from "node:path";
import type { Prisma } from "@prisma/client";
import { getProbe, probeChoices, requiredFreeBytes, validateParams } from "../../../probes/catalog";
import { capabilitiesSchema } from "../../../probes/protocol/schemas";
import { db } from "../../db";
import { AppError } from "../../http/app-error";
import type { CreateRunInput } from "../../api/schemas/runs";
import { missingToolMessage, profileTargets } from "../hosts/host-summary";
import { notifyHost } from "../realtime/notify";

export function insideAllowed(target: string, allowed: string[]): boolean {
  const t = path.posix.normalize(target);
  return allowed.some((dir) => {
    const d = path.posix.normalize(dir).replace(/\/+$/, "") || "/";
    return t === d || t.startsWith(d === "/" ? "/" : `${d}/`);
  });
}

/**
 * Queues a probe run (or N repeats of one configuration) after validating it against the
 * catalog and what the host's agent reported: allowed directories, installed tools, free space.
 * The agent checks all of it again before running anything.
 */
export async function createRun({ input, createdById }: { input: CreateRunInput; createdById: string }): Promise<{ ids: string[] }> {
  const probe = getProbe(input.probe);
  if (!probe) throw new AppError("BAD_REQUEST", `Unknown probe "${input.probe}".`, { probe: [`Choose ${probeChoices()}.`] });
  const host = await db().host.findUnique({ where: { id: input.hostId }, select: { id: true, capabilities: true, profile: true } });
  if (!host) throw new AppError("NOT_FOUND", `No host ${input.hostId}.`);
  const v = validateParams(input.probe, input.params);
  if (!v.ok) {
    const fieldErrors = Object.fromEntries(Object.entries(v.fieldErrors).map(([k, msgs]) => [`params.${k}`, msgs]));
    throw new AppError("BAD_REQUEST", v.message, fieldErrors);
  }
  const params = v.params as { target: string } & Record<string, unknown>;
  // A host whose agent never reported its directories has no allowed target yet: queueing would
  // accept any path (/etc) and leave the refusal to the agent.
  const caps = capabilitiesSchema.safeParse(host.capabilities);
  if (!caps.success) {
    throw new AppError("BAD_REQUEST", "This host's agent has not reported its allowed directories yet: start the agent on the host, then launch again.", {
      "params.target": ["No allowed directories known for this host yet."],
    });
  }
  if (!insideAllowed(params.target, caps.data.allowedDirs)) {
    throw new AppError("BAD_REQUEST", "The target is outside the directories this host's agent allows.", {
      "params.target": [`Choose one of: ${caps.data.allowedDirs.join(", ") || "(none)"}`],
    });
  }
  const missing = missingToolMessage(host.capabilities, input.probe, "this host", host.profile);
  if (missing) throw new AppError("BAD_REQUEST", missing, { probe: [probe.tool.installHint] });
  const needed = requiredFreeBytes(input.probe, params);
  const free = profileTargets(host.profile).find((t) => t.path === params.target)?.freeBytes;
  if (needed > 0 && typeof free === "number" && free < needed) {
    const gib = (b: number) => (b / 2 ** 30).toFixed(1);
    throw new AppError("BAD_REQUEST", `This run writes ${gib(needed)} GiB but ${params.target} has ${gib(free)} GiB free.`, {
      "params.target": [`Needs ${gib(needed)} GiB free, has ${gib(free)} GiB.`],
    });
  }
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
