// fsmeta counts files per second, not bytes: only its duration and the CPUs can be judged.
import type { ProbeChecks } from "../core/probe";
import type { FsmetaParams } from "./params";

export const fsmetaChecks: ProbeChecks<FsmetaParams> = {
  // One fio worker per directory (probes/fsmeta/command.ts).
  claim: (p) => ({ tool: "fsmeta (fio)", measuredSeconds: null, read: null, write: null, threads: p.dirs }),
};
