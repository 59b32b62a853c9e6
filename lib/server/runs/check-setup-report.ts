import type { JobSetup, SetupReport } from "../../../probes/protocol/schemas";
import { AppError } from "../../http/app-error";
import { jobSetupForRun } from "../experiments/job-setup";

/**
 * A setup report says what an experiment arm's setup did on the host, so it is taken only for a
 * run whose job carried that setup (an arm with a lab, tunables or a cache drop), and only about
 * what that setup asked for: a report on any other run would put a lab or changed settings on
 * a run's record that nothing on the server asked for. Refused with a 400 naming the field
 * rather than dropped, so an agent that sends one learns it at once.
 */
export async function assertSetupReportFits(opts: { run: { experimentId: string | null; armIndex: number | null }; report: SetupReport | null | undefined }): Promise<void> {
  const { report } = opts;
  if (!report) return;
  const setup = await jobSetupForRun(opts.run);
  if (!setup) {
    throw new AppError("BAD_REQUEST", "setup: this run's job carried no setup (no lab, tunables or cache drop), so it has no setup report; send the finish without `setup`.", {
      setup: ["This run's job carried no setup."],
    });
  }
  const errors = reportErrors(setup, report);
  if (errors.length > 0) {
    const [field, message] = errors[0]!;
    throw new AppError("BAD_REQUEST", `${field}: ${message}`, Object.fromEntries(errors.map(([f, m]) => [f, [m]])));
  }
}

function reportErrors(setup: JobSetup, report: SetupReport): [string, string][] {
  const errors: [string, string][] = [];
  if (report.lab && !setup.lab) errors.push(["setup.lab", "This run's job asked for no lab volume."]);
  const asked = new Set(Object.keys(setup.tunables ?? {}));
  report.tunables.forEach((t, i) => {
    if (!asked.has(t.name)) errors.push([`setup.tunables.${i}.name`, `This run's job did not ask to change ${t.name}.`]);
  });
  if (report.droppedCaches && !setup.dropCaches) errors.push(["setup.droppedCaches", "This run's job did not ask to drop the page cache."]);
  return errors;
}
