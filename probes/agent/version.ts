/** Reported in capabilities and logs; bump when the agent's behaviour or protocol use changes. */
export const AGENT_VERSION = "0.1.0";
