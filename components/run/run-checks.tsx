import Link from "next/link";
import type { RunJson } from "@/lib/api/schemas/runs";

/**
 * The checks a finished run failed against its own telemetry (probes/checks): each flag with
 * the figures that decided it and the guide section that explains it. A flagged run is not a
 * valid measurement (experiment verdicts leave it out), so this sits right above its result.
 */
export function RunChecks({ run }: { run: Pick<RunJson, "status" | "flags" | "checkedAt"> }) {
  if (run.status !== "SUCCEEDED") return null;
  return (
    <section data-testid="run-checks">
      {run.flags.length > 0 ? (
        <div className="alert alert-error" data-testid="run-checks-invalid">
          <strong>Not a valid measurement</strong>
          <ul>
            {run.flags.map((f) => (
              <li key={f.code} data-testid="run-check" data-code={f.code}>
                <strong>{f.title}:</strong> {f.evidence}
                {f.guide ? (
                  <>
                    {" "}
                    <Link href={f.guide.href} className="small" data-testid="run-check-guide">
                      Why: {f.guide.section} in the guide
                    </Link>
                  </>
                ) : null}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {run.checkedAt === null ? (
        <p className="muted small" data-testid="run-checks-unchecked">
          This run was not checked against telemetry: the agent recorded none{run.flags.length > 0 ? "; only its duration was judged" : ""}.
        </p>
      ) : run.flags.length === 0 ? (
        <p className="muted small" data-testid="run-checks-passed">
          Checked against the run&apos;s telemetry: the machine did what the result claims.
        </p>
      ) : null}
    </section>
  );
}
