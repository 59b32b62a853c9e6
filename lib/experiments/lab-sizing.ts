// IOzone's file size (-s, params.fileSizeMiB) in a lab arm. A lab image holds the probe's file
// at most at a quarter of the volume (probes/lab sizing), and one image exists at a time, so the
// file may use a quarter of the lab's free space less the agent's margin and the file system's
// own metadata. The article's 4 GiB file shrinks to that; below 64 MiB the run is refused.
const MiB = 2 ** 20;
const MARGIN = 64 * MiB;

export function labIozoneFileSizeMiB(freeBytes: number | null): number | null {
  if (freeBytes === null) return null;
  const fit = Math.floor(((freeBytes - 2 * MARGIN) * 6) / 7 / 4 / MiB / 64) * 64;
  return fit >= 64 ? fit : null;
}
