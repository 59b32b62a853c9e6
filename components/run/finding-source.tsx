import Link from "next/link";

interface Source {
  guide: { section: string; href: string } | null;
  doc: { title: string; href: string } | null;
  next?: { title: string; href: string } | null;
}

/** Where a finding is explained: a guide section, or an external document when no guide covers it. */
export function FindingSource({ finding }: { finding: Source }) {
  return (
    <p className="small">
      {finding.guide ? (
        <Link href={finding.guide.href} data-testid="finding-guide">
          Why, and what to change: {finding.guide.section} in the guide
        </Link>
      ) : finding.doc ? (
        <a href={finding.doc.href} data-testid="finding-doc" rel="noreferrer" target="_blank">
          No guide covers this; see {finding.doc.title}
        </a>
      ) : null}
      {finding.next ? (
        <>
          {" · "}
          <Link href={finding.next.href} data-testid="finding-next">
            Test it: {finding.next.title}
          </Link>
        </>
      ) : null}
    </p>
  );
}

/** The rule's mechanism and limits, folded: what the finding rests on and what it cannot see. */
export function FindingBasis({ finding }: { finding: { mechanism: string; limits: string } }) {
  return (
    <details data-testid="finding-basis">
      <summary className="small">How the rule reads it, and its limits</summary>
      <p className="small">{finding.mechanism}</p>
      <p className="small">
        <em>Limits:</em> {finding.limits}
      </p>
    </details>
  );
}
