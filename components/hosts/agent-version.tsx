/** The agent release a host last reported, marked "outdated" when older than the server's own. */
export function AgentVersion({ version, outdated, current }: { version: string | null; outdated: boolean; current: string }) {
  if (!version) return null;
  return (
    <span className="small" data-testid="agent-version">
      agent {version}
      {outdated ? (
        <>
          {" "}
          <span className="badge badge-outdated" data-testid="agent-outdated" title={`This server ships agent ${current}: re-run the install line from this host's page to upgrade.`}>
            outdated
          </span>
        </>
      ) : null}
    </span>
  );
}
