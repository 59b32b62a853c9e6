// IOzone's file size (-s, params.fileSizeMiB) in a lab arm: one image exists at a time, so the
// volume may use the lab's free space less the agent's 64 MiB margin, and the file is at most a
// quarter of it (probes/lab/sizing.ts, the rule the server and the agent check). The article's
// 4 GiB file shrinks to that; below 64 MiB the run is refused.
import { FREE_SPACE_MARGIN_BYTES } from "../../probes/core/sizing";
import { labFileFitsMiB } from "../../probes/lab/sizing";

export function labIozoneFileSizeMiB(freeBytes: number | null): number | null {
  return freeBytes === null ? null : labFileFitsMiB(freeBytes - FREE_SPACE_MARGIN_BYTES);
}
