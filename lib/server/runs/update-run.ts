import type { Actor } from "../../auth/actor";
import { assertOwnerOrAdmin } from "../../auth/ownership";
import { db } from "../../db";
import { AppError } from "../../http/app-error";
import type { UpdateRunInput } from "../../api/schemas/tags";

/** Sets a run's tags and/or note (its launcher or an admin); answers the stored values. */
export async function updateRun({ id, actor, input }: { id: string; actor: Actor; input: UpdateRunInput }): Promise<{ id: string; tags: string[]; notes: string | null }> {
  const run = await db().probeRun.findUnique({ where: { id }, select: { createdById: true } });
  if (!run) throw new AppError("NOT_FOUND", `No run ${id}.`);
  assertOwnerOrAdmin(actor, run.createdById, "this run");
  const notes = input.notes === undefined ? undefined : input.notes?.trim() ? input.notes.trim() : null;
  return db().probeRun.update({
    where: { id },
    data: { ...(input.tags !== undefined ? { tags: input.tags } : {}), ...(notes !== undefined ? { notes } : {}) },
    select: { id: true, tags: true, notes: true },
  });
}
