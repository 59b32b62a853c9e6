// How a lab volume reached the disk, in words: the run page's setup section, the experiment's plan
// and the warning when a lab run went through the backing file system's page cache (its O_DIRECT
// writes were then not direct, and the arms' figures depend on the host's writeback).
import type { SetupReport } from "@/probes/protocol/schemas";

type LabReport = NonNullable<SetupReport["lab"]>;

/** "loop device with direct I/O", "whole device /dev/vdb", …; reports from older agents carry no kind. */
export function labKindText(lab: LabReport): string {
  switch (lab.kind) {
    case "loop-dio":
      return "image on a loop device with direct I/O (the backing file system's page cache is bypassed)";
    case "loop-buffered":
      return `image on a loop device WITHOUT direct I/O: writes went through the backing file system's page cache${lab.dioReason ? ` (${lab.dioReason})` : ""}`;
    case "device":
      return `whole device ${lab.device ?? lab.loopDevice}, formatted for this run`;
    default:
      return "image on a loop device (direct I/O not recorded by this agent version)";
  }
}

/** The plan's words for a lab arm: an image of the experiment's size, or the named whole device. */
export function armLabText(arm: { fs?: string; mountOptions?: string[]; labDevice?: string }, labImageBytes: number | null): string {
  const opts = arm.mountOptions?.length ? `, mounted ${arm.mountOptions.join(",")}` : "";
  if (arm.labDevice) return `fresh ${arm.fs} on the whole device ${arm.labDevice}${opts}`;
  return `fresh ${arm.fs} lab volume of ${((labImageBytes ?? 0) / 2 ** 20).toFixed(0)} MiB (loop image, direct I/O when the host allows it)${opts}`;
}

/** A plain warning when any lab run of the experiment had no direct I/O to its backing file. */
export function LabPageCacheWarning({ runs }: { runs: { setup: SetupReport | null }[] }) {
  const buffered = runs.filter((r) => r.setup?.lab?.dio === false);
  if (buffered.length === 0) return null;
  const reason = buffered.find((r) => r.setup?.lab?.dioReason)?.setup?.lab?.dioReason;
  return (
    <div role="alert" className="alert alert-warn" data-testid="lab-buffered-warning">
      {buffered.length === 1 ? "One lab run" : `${buffered.length} lab runs`} went through the backing file system&apos;s page cache: the host
      refused direct I/O on the loop device{reason ? ` (${reason})` : ""}. Their direct writes were cached on the host, so the arms&apos; figures
      partly measure the host&apos;s writeback rather than the file system under test. Put the agent&apos;s --lab directory on a local disk file
      system, or give it a whole device with --lab-device.
    </div>
  );
}
