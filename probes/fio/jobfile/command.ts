// The argv of a job-file run: fio reads the file the agent writes (0600, O_EXCL) into the run's
// private directory and runs in that directory, so the files fio makes up from job names
// (HOWTO: "jobname.jobnumber.filenumber" in ./ when no directory is given) and the plain names
// the allow-list admits all land inside it. Options given before the file on fio's command line
// act as defaults of every job (a [global] above the file's own: checked with fio 3.33), so
// the report formats and the percentiles the presets use apply unless the file says otherwise.
import { inTarget } from "../../core/schemas";
import type { CommandSpec } from "../../core/types";
import { describeProblem, validateJobFile } from "./validate";

export const FIO_JOB_FILE_NAME = "probebook-job.fio";

export function buildFioJobFileCommand(jobFile: string, runDir: string, percentiles: readonly number[]): CommandSpec {
  const verdict = validateJobFile(jobFile);
  // The params schema has refused such a file already; this keeps the builder honest on its own.
  if (!verdict.ok) throw new Error(`refused job file: ${verdict.problems.map(describeProblem).join("; ")}`);
  const file = inTarget(runDir, FIO_JOB_FILE_NAME);
  return {
    file: "fio",
    args: ["--output-format=normal,json", "--eta=always", `--percentile_list=${percentiles.join(":")}`, FIO_JOB_FILE_NAME],
    env: { LC_ALL: "C" },
    cwd: runDir,
    timeoutSec: verdict.summary.timeoutSec,
    files: [file],
    layout: [{ file, bytes: 0, content: jobFile }],
  };
}
