// The token travels in the environment, not in argv: every user of the host can read a process's
// arguments in ps, only its owner and root its environment.

/**
 * The scratch directory the commands name: a new host has no such directory, and the agent
 * refuses an --allow directory that does not exist, so the command makes it first.
 */
export const DEFAULT_SCRATCH_DIR = "/srv/probebook";

const prepare = `mkdir -p ${DEFAULT_SCRATCH_DIR} && `;

/** The exact command an operator runs on the host to start the agent with its registration token. */
export function agentCommand(serverUrl: string, token: string): string {
  return `${prepare}PROBEBOOK_AGENT_TOKEN=${token} npm run agent -- --server ${serverUrl} --allow ${DEFAULT_SCRATCH_DIR},/dev/shm`;
}

export function bundledAgentCommand(serverUrl: string, token: string): string {
  return `${prepare}PROBEBOOK_AGENT_TOKEN=${token} node probebook-agent.cjs --server ${serverUrl} --allow ${DEFAULT_SCRATCH_DIR},/dev/shm`;
}

/**
 * The one line that installs the agent executable as a systemd service (GET /agent/install.sh).
 * The token is on sudo's command line for the moment the install runs; it works once and the
 * agent trades it for a credential at its first start.
 */
export function installCommand(serverUrl: string, token: string): string {
  return `curl -fsSL ${serverUrl}/agent/install.sh | sudo sh -s -- --token ${token}`;
}
