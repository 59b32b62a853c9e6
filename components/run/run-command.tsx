import type { RunCommand } from "@/lib/server/runs/run-command";

/** The exact command a launched run ran, and the input files (a fio job file) the agent wrote for it. */
export function RunCommandView({ command }: { command: RunCommand | null }) {
  if (!command) return null;
  return (
    <details data-testid="run-command" open={command.inputFiles.length > 0}>
      <summary>
        <strong>Command</strong> <span className="muted small">(in the run&apos;s private directory inside the target)</span>
      </summary>
      <pre data-testid="run-command-line" style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>
        {command.line}
      </pre>
      {command.inputFiles.map((f) => (
        <div key={f.name}>
          <p className="small">
            <code>{f.name}</code>, written by the agent before the run (mode 0600):
          </p>
          <pre data-testid="run-job-file" style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere", maxHeight: "24rem", overflow: "auto" }} tabIndex={0}>
            {f.text}
          </pre>
        </div>
      ))}
    </details>
  );
}
