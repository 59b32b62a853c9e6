import { agentCommand, bundledAgentCommand, installCommand } from "./agent-command";
import { serverUrl } from "./server-url";

/** What the page shows once after a registration token is issued: the token and the commands that use it. */
export interface HostRegistration {
  id: string;
  name: string;
  token: string;
  expiresAt: string;
  command: string;
  bundledCommand: string;
  /** curl … /agent/install.sh | sudo sh: the executable as a systemd service. */
  installCommand: string;
}

export async function describeRegistration({
  host,
}: {
  host: { id: string; name: string; registrationToken: string; registrationExpiresAt: Date | null };
}): Promise<HostRegistration> {
  const url = await serverUrl();
  return {
    id: host.id,
    name: host.name,
    token: host.registrationToken,
    expiresAt: (host.registrationExpiresAt ?? new Date()).toISOString(),
    command: agentCommand(url, host.registrationToken),
    bundledCommand: bundledAgentCommand(url, host.registrationToken),
    installCommand: installCommand(url, host.registrationToken),
  };
}
