// The agent ⇄ server protocol's version, apart from the agent's own release version: it changes
// only when one side would misread the other (a field renamed, a meaning changed), not when an
// optional field is added — both sides ignore what they do not know.

/**
 * This protocol's version. Agents that predate the field send none and speak protocol 1.
 * The server accepts this version and the one before (lib/server/agent/compatibility.ts).
 */
export const AGENT_PROTOCOL_VERSION = 1;

/** What an agent that reports no protocol version speaks. */
export const LEGACY_AGENT_PROTOCOL_VERSION = 1;
