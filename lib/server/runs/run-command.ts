// The command a launched run ran, as the agent builds it: the probe's own argv builder
// (probes/<tool>/command.ts) on the run's stored parameters, with the run's private directory
// (a mkdtemp name only the agent knew) shown as <run dir>. For a fio job file, also the file the
// agent wrote there, as stored with the run.
import { getProbe, validateParams } from "../../../probes/catalog";

export const RUN_DIR_PLACEHOLDER = "<run dir>";

export interface RunCommand {
  /** The argv as one line, each argument quoted when it needs to be for a shell reader. */
  line: string;
  /** Files the agent wrote into the run directory before the tool started, with their text. */
  inputFiles: { name: string; text: string }[];
}

const quote = (a: string) => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`);

export function runCommand(probeId: string, params: unknown): RunCommand | null {
  const probe = getProbe(probeId);
  if (!probe) return null;
  const v = validateParams(probe.id, params);
  if (!v.ok) return null;
  try {
    const c = probe.buildCommand(v.params, RUN_DIR_PLACEHOLDER);
    const shown = (a: string) => (a.includes(RUN_DIR_PLACEHOLDER) ? a : quote(a));
    return {
      line: [c.file, ...c.args].map(shown).join(" "),
      inputFiles: (c.layout ?? []).flatMap((l) => (l.content === undefined ? [] : [{ name: l.file.replace(`${RUN_DIR_PLACEHOLDER}/`, ""), text: l.content }])),
    };
  } catch {
    return null;
  }
}
