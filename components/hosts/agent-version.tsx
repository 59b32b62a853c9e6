/** The installer line that upgrades an installed agent in place (probes/agent/deploy/install.sh). */
export const upgradeCommand = (server: string) => `curl -fsSL ${server}/agent/install.sh | sudo sh -s -- --upgrade`;

/** The agent release a host last reported, marked "outdated" when older than the server's own. */
export function AgentVersion({ version, outdated, current, server }: { version: string | null; outdated: boolean; current: string; server: string }) {
  if (!version) return null;
  return (
    <span className="small" data-testid="agent-version">
      agent {version}
      {outdated ? (
        <>
          {" "}
          <span className="badge badge-outdated" data-testid="agent-outdated" title={`This server ships agent ${current}; upgrade on the host with: ${upgradeCommand(server)}`}>
            outdated
          </span>
        </>
      ) : null}
    </span>
  );
}
