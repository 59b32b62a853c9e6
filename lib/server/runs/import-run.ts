import type { Prisma } from "@prisma/client";
import { z } from "zod";
import { isProbeId, parseOutput, probeChoices } from "../../../probes/catalog";
import { MAX_CHUNK_CHARS } from "../../../probes/agent/protocol";
import { db } from "../../db";
import { AppError } from "../../http/app-error";
import { storableText } from "./sanitize-log";

export const MAX_IMPORT_CHARS = 8 * 1024 * 1024;

export const importRunSchema = z.object({
  probe: z.string().refine(isProbeId, { message: `Choose ${probeChoices()}.` }),
  output: z
    .string()
    .min(1, "Paste or upload the tool's output.")
    .max(MAX_IMPORT_CHARS, `Output is limited to ${MAX_IMPORT_CHARS / 1024 / 1024} MiB.`),
  hostLabel: z.string().trim().min(1, "Say which machine this output came from.").max(200),
  notes: z.string().trim().max(5000).optional(),
});
export type ImportRunInput = z.infer<typeof importRunSchema>;

/**
 * Keeps existing tool output as a run: parsed with the same catalog parser as live runs, stored
 * with origin IMPORTED, and its raw text kept as the run's log so it can be re-parsed later.
 * Output the parser cannot read is refused with the parser's own message; nothing is stored.
 */
export async function importRun(input: ImportRunInput, createdById: string): Promise<{ id: string }> {
  const parsed = parseOutput(input.probe, input.output);
  if (!parsed.ok) throw new AppError("BAD_REQUEST", parsed.error, { output: [parsed.error] });
  const chunks: { seq: number; data: string }[] = [];
  for (let i = 0, seq = 0; i < input.output.length; i += MAX_CHUNK_CHARS, seq++) {
    chunks.push({ seq, data: storableText(input.output.slice(i, i + MAX_CHUNK_CHARS)) });
  }
  const now = new Date();
  const run = await db().probeRun.create({
    data: {
      probe: input.probe,
      params: {},
      hostLabel: input.hostLabel,
      notes: input.notes || null,
      origin: "IMPORTED",
      status: "SUCCEEDED",
      createdById,
      startedAt: now,
      finishedAt: now,
      result: parsed.result as unknown as Prisma.InputJsonValue,
      warnings: parsed.result.warnings,
      chunks: { create: chunks },
    },
    select: { id: true },
  });
  return run;
}
