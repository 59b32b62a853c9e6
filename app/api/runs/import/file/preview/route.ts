import { runsApi } from "@/lib/api/runs";
import { previewImport } from "@/lib/server/runs/import-run";
import { handle } from "../../../../handle";

export const dynamic = "force-dynamic";

export const POST = handle(runsApi.importFilePreview, async ({ body }) => ({ status: 200, json: await previewImport({ input: { probe: body.probe, output: await body.file.text() } }) }));
