// An experiment's diagnosis on real PostgreSQL: two imported sar runs, one of them a published
// `sar -B` day with direct reclaim, the other a healthy capture; the rule names only the first.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseOutput } from "../../../probes/catalog";
import { db } from "../../db";
import { connectTestDatabase } from "../../testing/db";
import { getExperimentFindings } from "./get-experiment-findings";

connectTestDatabase();

const root = path.join(import.meta.dirname, "../../..");

async function sarRun(file: string) {
  const parsed = parseOutput("sar", fs.readFileSync(path.join(root, file), "utf8"));
  if (!parsed.ok) throw new Error(parsed.error);
  return db().probeRun.create({
    data: { probe: "sar", params: {}, status: "SUCCEEDED", origin: "IMPORTED", result: JSON.parse(JSON.stringify(parsed.result)) },
  });
}

describe("getExperimentFindings", () => {
  it("groups the guides' findings by rule with the runs that showed them", async () => {
    const reclaim = await sarRun("lib/diagnosis/fixtures/sar-B-direct-reclaim.txt");
    const healthy = await sarRun("probes/sar/fixtures/sar-B.txt");
    const findings = await getExperimentFindings({ runIds: [healthy.id, reclaim.id] });
    expect(findings.map((f) => f.rule)).toEqual(["direct-reclaim"]);
    expect(findings[0]!.runs.map((r) => r.runId)).toEqual([reclaim.id]);
    expect(findings[0]!.guide?.href).toMatch(/^\/guides\//);
    expect(await getExperimentFindings({ runIds: [healthy.id] })).toEqual([]);
  });
});
