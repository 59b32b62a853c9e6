import type { HostRegistration } from "@/lib/server/hosts/describe-registration";
import { CommandBox } from "../command-box";

/** What the add-host and re-register actions answer: a refusal to show, or the registration made. */
export interface RegistrationState {
  error?: string;
  fieldErrors?: { name?: string[] };
  host?: HostRegistration;
}

/** A form action that registers a host; the page passes its server action in (components/ never import app/). */
export type RegistrationAction = (prev: RegistrationState, form: FormData) => Promise<RegistrationState>;

/** Shown once after creating a host or re-issuing its token: the token is never shown again. */
export function RegistrationResult({ host }: { host: HostRegistration }) {
  return (
    <div className="alert alert-ok" data-testid="registration">
      <p style={{ marginTop: 0 }}>
        <strong>{host.name}</strong> is registered. Run this on the host within 24 hours (until {host.expiresAt.slice(0, 16).replace("T", " ")} UTC);
        the token works once and is not shown again.
      </p>
      <p className="small">
        One line installs the agent (one file, no Node needed; x86-64 Linux with systemd) as a hardened service that
        starts at boot; <code>--allow DIR,…</code> chooses where probes may write (default <code>/srv/probebook,/dev/shm</code>):
      </p>
      <CommandBox command={host.installCommand} testId="install-command" label="Copy the install command" />
      <p className="small">Or from a checkout of Probebook:</p>
      <CommandBox command={host.command} testId="agent-command" label="Copy the checkout command" />
      <p className="small">Or with the single-file agent (see probes/agent/deploy/README.md):</p>
      <CommandBox command={host.bundledCommand} testId="bundled-command" label="Copy the single-file command" />
      <p className="small">
        Registration token: <code data-testid="registration-token">{host.token}</code>
      </p>
      <p className="small" style={{ marginBottom: 0 }}>
        <code>--allow</code> lists the only directories probes may write in; they must exist. <code>/srv/probebook</code> is a
        scratch directory on the disk to measure, which the <code>mkdir -p</code> makes (as a user other than root, make it
        with <code>sudo mkdir -p /srv/probebook &amp;&amp; sudo chown $USER /srv/probebook</code>); put one on each device you
        want to measure, and <code>/dev/shm</code> measures memory.
      </p>
    </div>
  );
}
