// A child process of bench/lib/fleet-ballast.ts: runs the idle agents it is given until it is
// told to stop (SIGTERM), and answers status requests over IPC.
import { newSocketCounters } from "./agent-socket-client";
import { FleetAgent, type FleetCounters } from "./fleet-agent";
import type { BallastCommand, BallastStatus } from "./fleet-ballast";

const counters: FleetCounters = { requests: {}, errors: {}, wrongClaims: 0, socket: newSocketCounters() };
let fleet: FleetAgent[] = [];

process.on("message", (m: BallastCommand) => {
  if (m.kind === "start") {
    fleet = m.agents.map((a) => new FleetAgent(a.hostId, a.credential, a.base, counters, m.idleHeartbeatMs, m.transport));
    for (const a of fleet) a.start(Math.random() * m.spreadMs);
  } else {
    process.send!({ id: m.id, connected: fleet.filter((a) => a.connected).length, total: fleet.length, counters } satisfies BallastStatus);
  }
});
process.on("SIGTERM", () => {
  fleet.forEach((a) => a.stop());
  process.exit(0);
});
// The parent went away without a SIGTERM (killed): do not poll for ever.
process.on("disconnect", () => process.exit(0));
