// The token travels in the environment, not in argv: every user of the host can read a process's
// arguments in ps, only its owner and root its environment.

/** The exact command an operator runs on the host to start the agent with its registration token. */
export function agentCommand(serverUrl: string, token: string): string {
  return `PROBEBOOK_AGENT_TOKEN=${token} npm run agent -- --server ${serverUrl} --allow /srv/probebook,/dev/shm`;
}

export function bundledAgentCommand(serverUrl: string, token: string): string {
  return `PROBEBOOK_AGENT_TOKEN=${token} node probebook-agent.cjs --server ${serverUrl} --allow /srv/probebook,/dev/shm`;
}
