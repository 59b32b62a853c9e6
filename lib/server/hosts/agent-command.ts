/** The exact command an operator runs on the host to start the agent with its registration token. */
export function agentCommand(serverUrl: string, token: string): string {
  return `npm run agent -- --server ${serverUrl} --token ${token} --allow /srv/probebook,/dev/shm`;
}

export function bundledAgentCommand(serverUrl: string, token: string): string {
  return `node probebook-agent.cjs --server ${serverUrl} --token ${token} --allow /srv/probebook,/dev/shm`;
}
