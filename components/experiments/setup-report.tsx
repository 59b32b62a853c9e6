import type { SetupReport } from "@/probes/protocol/schemas";
import { labKindText } from "./lab-kind";

/** "ext3 volume served by the ext4 driver" when the kernel's driver differs from the file system made. */
export function driverText(lab: NonNullable<SetupReport["lab"]>): string {
  return lab.driver && lab.driver !== lab.fsType ? `${lab.fsType} volume served by the ${lab.driver} driver` : `${lab.fsType} volume, ${lab.driver || lab.fsType} driver`;
}

/** What an experiment arm's setup did around one run, as the agent reported it. */
export function SetupReportView({ setup }: { setup: SetupReport }) {
  return (
    <dl className="facts" data-testid="setup-report">
      {setup.lab ? (
        <>
          <dt>Lab file system</dt>
          <dd data-testid="setup-driver">{driverText(setup.lab)}</dd>
          <dt>mkfs</dt>
          <dd>
            <code>{setup.lab.mkfsCommand}</code>
          </dd>
          <dt>Mount options</dt>
          <dd>
            <code>{setup.lab.mountOptions.join(",") || "(defaults)"}</code>
          </dd>
          <dt>Volume</dt>
          <dd data-testid="setup-lab-kind" data-kind={setup.lab.kind ?? "unknown"}>
            {labKindText(setup.lab)}
          </dd>
          <dt>{setup.lab.kind === "device" ? "Device" : "Loop device"}</dt>
          <dd data-testid="setup-loop">{setup.lab.loopDevice}</dd>
          <dt>{setup.lab.kind === "device" ? "Size" : "Image"}</dt>
          <dd>
            {(setup.lab.imageBytes / 2 ** 20).toFixed(0)} MiB,{" "}
            {setup.lab.removed
              ? setup.lab.kind === "device"
                ? "unmounted after the run"
                : "unmounted and deleted after the run"
              : "NOT removed: the agent retries at its next start"}
          </dd>
        </>
      ) : null}
      {setup.tunables.map((t) => (
        <span key={`${t.name}|${t.device}`} style={{ display: "contents" }}>
          <dt>
            {t.name}
            {t.device ? ` (${t.device})` : ""}
          </dt>
          <dd data-testid="setup-tunable">
            {t.from} → {t.to}, {t.restored ? `put back to ${t.from}` : "NOT restored yet: the agent's journal keeps it"}
          </dd>
        </span>
      ))}
      {setup.droppedCaches ? (
        <>
          <dt>Page cache</dt>
          <dd>dropped before the run</dd>
        </>
      ) : null}
      {setup.error ? (
        <>
          <dt>Setup error</dt>
          <dd>{setup.error}</dd>
        </>
      ) : null}
    </dl>
  );
}
